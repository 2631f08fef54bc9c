"""A stale optimizer (its model's parameters replaced, e.g. by ``Module.to('meta')`` or
``load_state_dict(assign=True)``): the true cause, and a fix, printed and applied by ``--fix``,
that works for every ``torch.optim`` optimizer and keeps its state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import Finding, diagnose
from devicelens.inspect import take_snapshot

from .conftest import to_in_place


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8))
        self.head = nn.Linear(8, 2, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


class Bag(nn.Module):
    """For SparseAdam, which takes sparse gradients only."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(10, 4, sparse=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.emb(x)


O = torch.optim  # noqa: E741
OPTIMIZERS: dict[str, Callable[[Any], torch.optim.Optimizer]] = {
    "SGD": lambda p: O.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "Adam": lambda p: O.Adam(p, lr=0.01, amsgrad=True),
    "Adam-decoupled": lambda p: O.Adam(p, lr=0.01, weight_decay=0.1,
                                       decoupled_weight_decay=True),
    "AdamW": lambda p: O.AdamW(p, lr=0.01),
    "AdamW-fused": lambda p: O.AdamW(p, lr=0.01, fused=True),  # NB: step on the device
    "Adamax": lambda p: O.Adamax(p, lr=0.01),
    "NAdam": lambda p: O.NAdam(p, lr=0.01),
    "RAdam": lambda p: O.RAdam(p, lr=0.01),
    "RMSprop": lambda p: O.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    "Adagrad": lambda p: O.Adagrad(p, lr=0.1),
    "Adadelta": lambda p: O.Adadelta(p),
    "Adafactor": lambda p: O.Adafactor(p, lr=0.01),
    "ASGD": lambda p: O.ASGD(p, lr=0.01),
    "Rprop": lambda p: O.Rprop(p, lr=0.01),
    "LBFGS": lambda p: O.LBFGS(p, lr=0.5, history_size=3, max_iter=3),
    "SparseAdam": lambda p: O.SparseAdam(p, lr=0.01),
    "Muon": lambda p: O.Muon([q for q in p if q.dim() == 2], lr=0.01),
}


def test_every_torch_optim_optimizer_is_covered() -> None:
    real = {n for n in dir(torch.optim) if isinstance(getattr(O, n), type)
            and issubclass(getattr(O, n), O.Optimizer) and n != "Optimizer"}
    assert real <= {k.split("-")[0] for k in OPTIMIZERS}


def make(name: str) -> tuple[nn.Module, torch.optim.Optimizer, Callable[[], torch.Tensor]]:
    torch.manual_seed(0)
    sparse = name == "SparseAdam"
    model: nn.Module = Bag() if sparse else Net()
    x = torch.tensor([[1, 2], [3, 3]]) if sparse else torch.randn(6, 4)
    opt = OPTIMIZERS[name](list(model.parameters()))

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        return loss
    return model, opt, closure


def train(opt: torch.optim.Optimizer, closure: Callable[[], torch.Tensor], steps: int) -> None:
    for _ in range(steps):
        if isinstance(opt, O.LBFGS):
            opt.step(closure)
        else:
            closure()
            opt.step()


def replace_parameters(model: nn.Module) -> None:
    """New Parameter objects with the same values: the optimizer now holds stale ones."""
    sd = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(sd, assign=True)


def stale(name: str) -> tuple[dict[str, Any], Any]:
    model, opt, closure = make(name)
    train(opt, closure, 2)
    tmodel, topt, tclosure = make(name)  # NB: the same seed: a twin trained identically
    train(topt, tclosure, 2)
    twin = (tmodel, topt)
    replace_parameters(model)
    return {"model": model, "opt": opt, "torch": torch}, (twin, closure)


def orphan(ns: dict[str, Any]) -> Finding:
    (f,) = [f for f in diagnose(take_snapshot(ns)) if f.kind == "optimizer_orphan"]
    return f


def assert_same_training(ns: dict[str, Any], twin: tuple[nn.Module, Any]) -> None:
    """The fixed optimizer steps exactly as one whose parameters were never replaced."""
    model, opt = ns["model"], ns["opt"]
    tmodel, topt = twin
    ids = {id(p) for p in model.parameters()}
    assert all(id(p) in ids for g in opt.param_groups for p in g["params"])
    for a, b in zip(opt.state.values(), topt.state.values(), strict=True):
        for k in b:
            va, vb = a[k], b[k]
            if torch.is_tensor(vb):
                assert torch.equal(va, vb), k  # e.g. exp_avg values identical after the remap
    for closure_of, o in ((ns["closure"], opt), (ns["tclosure"], topt)):
        train(o, closure_of, 2)
    for p, q in zip(model.parameters(), tmodel.parameters(), strict=True):
        assert torch.equal(p, q)


def closures(ns: dict[str, Any], twin: tuple[nn.Module, Any], name: str) -> None:
    sparse = name == "SparseAdam"
    x = torch.tensor([[1, 2], [3, 3]]) if sparse else torch.randn(6, 4)
    for key, (m, o) in (("closure", (ns["model"], ns["opt"])), ("tclosure", twin)):
        def closure(m: nn.Module = m, o: Any = o) -> torch.Tensor:
            o.zero_grad()
            loss = m(x).pow(2).mean()
            loss.backward()
            return loss
        ns[key] = closure


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_the_printed_fix_keeps_the_state_and_trains_like_nothing_happened(name: str) -> None:
    ns, (twin, _c) = stale(name)
    f = orphan(ns)
    assert "model was re-created, or its parameters replaced" in f.message
    assert "type(opt)(" not in f.fix  # AdamW's decoupled_weight_decay broke that
    exec(f.fix, ns)
    assert [g.kind for g in diagnose(take_snapshot(ns))] == []
    closures(ns, twin, name)
    assert_same_training(ns, twin)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_fix_all_applies_the_remap_and_trains_like_nothing_happened(name: str) -> None:
    ns, (twin, _c) = stale(name)
    report = moves.apply_all_fixes(ns)
    assert report.ok and report.applied == ("opt updates stale parameters",)
    assert report.skipped == () and [g.kind for g in diagnose(take_snapshot(ns))] == []
    closures(ns, twin, name)
    assert_same_training(ns, twin)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "LBFGS"])
def test_after_module_to_meta_the_state_follows_the_new_parameters(name: str) -> None:
    model, opt, closure = make(name)
    train(opt, closure, 2)
    model.to("meta")  # torch 2.13 without the swap flag: new Parameter objects
    ns = {"model": model, "opt": opt}
    f = orphan(ns)
    assert f.message.startswith("opt holds the parameters model had before model.to() "
                                "replaced them")
    assert f.devices == ("cpu", "meta")
    dry = moves.apply_fix(f, ns, dry_run=True)
    assert dry.ok and opt.param_groups[0]["params"][0].device.type == "cpu"
    report = moves.apply_fix(f, ns)
    assert report.ok and [g.kind for g in diagnose(take_snapshot(ns))] == []
    params = list(model.parameters())
    assert [id(p) for g in opt.param_groups for p in g["params"]] == [id(p) for p in params]
    for p in params:
        for k, v in opt.state[p].items():
            if torch.is_tensor(v) and (v.dim() or k != "step"):
                assert v.device.type == "meta", k
    if name != "LBFGS":  # NB: LBFGS reads the loss as a float: no step on meta
        for p in params:
            p.grad = torch.zeros_like(p)
        opt.step()


def test_param_groups_over_submodules_are_remapped_run_by_run() -> None:
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.AdamW([{"params": model.head.parameters(), "lr": 1e-3},
                             {"params": model.body.parameters()}], lr=1e-2)
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    model.to("meta")
    ns = {"model": model, "opt": opt, "torch": torch}
    f = orphan(ns)
    assert "[*model.head.parameters(), *model.body.parameters()]" in f.fix
    exec(f.fix, ns)
    assert opt.param_groups[0]["params"] == [model.head.weight]
    assert opt.param_groups[1]["params"][0] is model.body[0].weight
    assert opt.param_groups[0]["lr"] == 1e-3 and [g.kind for g in
                                                  diagnose(take_snapshot(ns))] == []


def test_a_remap_that_went_out_of_date_changes_nothing() -> None:
    ns, _twin = stale("Adam")
    f = orphan(ns)
    ns["model"].head = nn.Linear(8, 3, bias=False)  # the model changed shape meanwhile
    report = moves.apply_fix(f, ns)
    assert not report.ok and "out of date" in (report.error or "")
    assert ns["opt"].param_groups[0]["params"][0] is not ns["model"].body[0].weight


def test_no_matching_module_recreates_with_only_the_arguments_the_class_takes() -> None:
    _model, opt, _c = make("AdamW")
    other = nn.Linear(3, 3)
    ns = {"other": other, "opt": opt, "torch": torch}
    f = orphan(ns)
    assert f.action is None and "no module has parameters of the same shapes" in f.message
    exec(f.fix, ns)  # NB: AdamW.defaults has decoupled_weight_decay, which AdamW() refuses
    assert ns["opt"].param_groups[0]["params"][0] is other.weight
    report = moves.apply_all_fixes({"other": other, "opt": opt})
    assert not report.ok and report.skipped == (
        ("opt updates stale parameters",
         "no automatic fix: it is your call; run its fix code by hand if you agree"),)
    assert report.error == "no automatic fix for the 1 finding below"


def test_percent_devices_fix_lists_what_it_applied_and_the_optimizer_trains(ip: Any) -> None:
    ip.run_cell("import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
                "net = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))\n"
                "opt = torch.optim.AdamW(net.parameters(), lr=1e-2)\n"
                "net(torch.randn(3, 4)).sum().backward()\nopt.step()\n"
                "net.to('meta')\nx = torch.randn(3, 4)\n", store_history=False)
    from devicelens.render.text import report_text

    dry = report_text(ip.run_line_magic("devices", "--fix --dry-run"))
    assert "Would apply:\n  ✔ opt updates stale parameters\n  ✔ x is not on meta" in dry
    assert "already on nothing" not in dry
    text = report_text(ip.run_line_magic("devices", "--fix"))
    assert "Applied:\n  ✔ opt updates stale parameters" in text
    assert "  opt: stale parameters → current parameters (meta)" in text
    assert "Not applied" not in text and "already on nothing" not in text
    ns = ip.user_ns
    assert [f.kind for f in diagnose(take_snapshot(ns))] == []
    assert ip.run_cell("net(x).sum().backward()\nopt.step()", store_history=False).success
    assert ns["opt"].param_groups[0]["params"][0] is ns["net"][0].weight


class Wrapper:
    """A training-loop helper holding the optimizer (as Lightning Fabric's does)."""

    def __init__(self, optimizer: torch.optim.Optimizer) -> None:
        self.optimizer = optimizer

    @property
    def state(self) -> Any:  # NB: never read while inspecting
        raise AssertionError("devicelens ran a property")

    def step(self) -> Any:
        return self.optimizer.step()


def wrapped_state_left_behind() -> dict[str, Any]:
    torch.manual_seed(0)
    m = nn.Linear(10, 1)
    opt = torch.optim.AdamW(m.parameters())
    m(torch.randn(2, 10)).sum().backward()
    opt.step()
    to_in_place(m, "meta")  # as cpu -> cuda does: the parameters stay, their state does not
    return {"m": m, "optimizer": Wrapper(opt), "torch": torch}


def test_an_optimizer_inside_a_plain_wrapper_is_seen_and_fixed_through_it() -> None:
    ns = wrapped_state_left_behind()
    (f,) = [f for f in diagnose(take_snapshot(ns)) if f.kind == "optimizer_state"]
    assert f.fix.startswith("for _p, _s in optimizer.optimizer.state.items():")
    assert "optimizer.optimizer.state[m.weight]['exp_avg']" in f.paths
    exec(f.fix, ns)
    assert [g.kind for g in diagnose(take_snapshot(ns))] == []
    ns = wrapped_state_left_behind()
    report = moves.apply_all_fixes(ns)
    assert report.ok and report.applied == ("optimizer state left behind",)
    inner = ns["optimizer"].optimizer
    assert {v.device.type for s in inner.state.values() for k, v in s.items()
            if k != "step"} == {"meta"}


def test_moving_everything_takes_a_wrapped_optimizers_state_along() -> None:
    torch.manual_seed(0)
    m = nn.Linear(4, 2)
    opt = torch.optim.Adam(m.parameters())
    m(torch.randn(2, 4)).sum().backward()
    opt.step()
    ns = {"m": m, "optimizer": Wrapper(opt)}
    assert moves.move_all("meta", ns).ok
    assert m.weight.device.type == "meta" and opt.state[m.weight]["exp_avg"].device.type == "meta"
