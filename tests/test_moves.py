"""The move engine on real modules, optimizers and tensors, cpu -> meta (a real second device).

Every semantic is checked by identity (``is``), storage sharing and devices. Meta has no data, so
"training after the move" means a real forward/backward/``opt.step()`` on meta: it checks that
every tensor the step touches is on one device, not the numbers (the dtype tests train for real).
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import DEVICE_KINDS, diagnose
from devicelens.inspect import take_snapshot

Pair = namedtuple("Pair", "x y")


@dataclasses.dataclass(frozen=True)
class Frozen:
    x: torch.Tensor
    label: str = "f"


@dataclasses.dataclass
class Mutable:
    x: torch.Tensor
    n: int = 0


@dataclasses.dataclass(slots=True)
class Slotted:
    x: torch.Tensor


@dataclasses.dataclass(frozen=True, slots=True)
class FrozenSlotted:
    x: torch.Tensor
    n: int = 1


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.norm = nn.BatchNorm1d(8)
        self.dec = nn.Linear(8, 4)
        self.dec.weight = nn.Parameter(self.enc.weight.detach().t().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dec(self.norm(self.enc(x)).relu())


class Tied(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight  # tied weights: one Parameter, two owners

    def forward(self, i: torch.Tensor) -> torch.Tensor:
        return self.head(self.emb(i))


class Trappy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.scale = torch.full((4,), 2.0)  # a plain attribute: Module.to() misses it
        self.blocks = [nn.Linear(4, 4)]  # a plain list: Module.to() misses it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.blocks[0](self.fc(x) * self.scale)


def trained(model: nn.Module, opt_cls: Any = torch.optim.Adam, **kw: Any) -> Any:
    torch.manual_seed(0)
    params = list(model.parameters())
    for m in getattr(model, "blocks", []):
        params += list(m.parameters())
    opt = opt_cls(params, lr=1e-2, **kw)
    model(torch.randn(5, 4)).sum().backward()
    opt.step()
    return opt


def train_step(model: nn.Module, opt: Any, x: torch.Tensor) -> None:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()


def devices(ns: dict[str, Any]) -> set[str]:
    return {t.device for t in take_snapshot(ns).tensors() if t.role != "opt_param"
            and not t.path.endswith("['step']")}


# --- modules and optimizers ---------------------------------------------------------------

def test_modules_move_in_place_and_optimizers_keep_working() -> None:
    torch.manual_seed(0)
    model = Net()
    opt = trained(model)
    w, rm, enc = model.enc.weight, model.norm.running_mean, model.enc
    state = opt.state[w]
    grad = w.grad
    ns = {"model": model, "opt": opt, "w": w}
    report = moves.move_all("meta", ns)
    assert report.ok and report.error is None
    assert model.enc is enc and model.enc.weight is w and ns["w"] is w
    assert model.norm.running_mean is rm and rm.device.type == "meta"  # buffers keep identity
    assert opt.param_groups[0]["params"][0] is w and opt.state[w] is state
    assert w.device.type == "meta" and w.grad is not None and w.grad is not grad
    assert w.grad.device.type == "meta" and w.grad.shape == grad.shape
    assert {k: v.device.type for k, v in state.items()} == {
        "step": "cpu", "exp_avg": "meta", "exp_avg_sq": "meta"}
    assert state["step"].dtype == torch.float32 and float(state["step"]) == 1.0
    assert model.norm.num_batches_tracked.device.type == "meta"
    assert devices(ns) == {"meta"}
    train_step(model, opt, torch.randn(5, 4, device="meta"))  # every tensor on one device
    assert opt.state[w] is state and float(state["step"]) == 2.0


def test_a_state_tensor_left_behind_would_break_the_step() -> None:
    """The check above can fail: the same step with one state tensor on the CPU raises."""
    model = Net()
    opt = trained(model)
    moves.move_all("meta", {"model": model, "opt": opt})
    opt.state[model.enc.weight]["exp_avg"] = torch.zeros(8, 4)
    with pytest.raises(RuntimeError, match="device"):
        train_step(model, opt, torch.randn(5, 4, device="meta"))


def test_capturable_optimizer_moves_its_step_counter_too() -> None:
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), capturable=True)  # steps need CUDA: fill by hand
    for p in model.parameters():
        opt.state[p] = {"step": torch.tensor(1.0), "exp_avg": torch.zeros_like(p),
                        "exp_avg_sq": torch.zeros_like(p)}
    moves.move_all("meta", {"model": model, "opt": opt})
    assert opt.state[model.weight]["step"].device.type == "meta"
    assert opt.state[model.bias]["exp_avg"].device.type == "meta"


def test_tied_weights_stay_tied() -> None:
    model = Tied()
    opt = trained_tied(model)
    emb = model.emb.weight
    moves.move_all("meta", {"model": model, "opt": opt})
    assert model.head.weight is model.emb.weight is emb and emb.device.type == "meta"
    assert len(opt.param_groups[0]["params"]) == 1 and opt.param_groups[0]["params"][0] is emb
    model(torch.tensor([1, 2], device="meta")).sum().backward()
    opt.step()


def trained_tied(model: Tied) -> Any:
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.tensor([1, 2])).sum().backward()
    opt.step()
    return opt


def test_names_selects_what_moves_and_optimizer_state_follows_its_params() -> None:
    model = Net()
    opt = trained(model)
    x = torch.randn(3, 4)
    ns = {"model": model, "opt": opt, "x": x}
    report = moves.move_all("meta", ns, names=["model"])
    assert report.ok and ns["x"] is x and x.device.type == "cpu"
    assert opt.state[model.enc.weight]["exp_avg"].device.type == "meta"
    assert [m.path for m in report.moved] == ["model", "opt"]


def test_optimizer_params_that_belong_to_no_module_move_in_place() -> None:
    w = torch.randn(3, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    (w * 2).sum().backward()
    opt.step()
    ns = {"opt": opt}
    assert moves.move_all("meta", ns).ok
    assert opt.param_groups[0]["params"][0] is w and w.device.type == "meta"
    assert w.grad.device.type == "meta"
    assert opt.state[w]["momentum_buffer"].device.type == "meta"


# --- traps --------------------------------------------------------------------------------

def test_traps_are_moved_and_the_report_says_how_to_make_it_permanent() -> None:
    model = Trappy()
    opt = trained(model)
    block_w = model.blocks[0].weight
    ns = {"model": model, "opt": opt}
    report = moves.move_all("meta", ns)
    assert model.scale.device.type == "meta" and type(model.scale) is torch.Tensor
    assert "scale" not in model._buffers  # moved, not silently registered
    assert model.blocks[0].weight is block_w and block_w.device.type == "meta"
    assert opt.state[block_w]["exp_avg"].device.type == "meta"
    notes = "\n".join(report.notes)
    assert 'model.register_buffer("scale", _t, persistent=False)' in notes
    assert "model.blocks = torch.nn.ModuleList(model.blocks)" in notes
    train_step(model, opt, torch.randn(2, 4, device="meta"))
    # the suggested code really makes it permanent: afterwards Module.to() takes both along
    code = [n.split("Make it a buffer: ")[-1].split("Make it permanent: ")[-1]
            for n in report.notes]
    fresh = Trappy()
    for line in code:
        exec(line.replace("; ", "\n"), {"torch": torch, "model": fresh})
    fresh.to(torch.float64)
    assert fresh.scale.dtype == torch.float64 and fresh.blocks[0].weight.dtype == torch.float64


# --- loose tensors and containers ----------------------------------------------------------

def loose_namespace() -> dict[str, Any]:
    x = torch.randn(3, 4)
    leaf = torch.randn(4, requires_grad=True)
    (leaf * 2).sum().backward()
    shared = (x, 1)
    return {
        "x": x, "alias": x, "view": x[1:], "col": x[:, 1], "det": x.detach(),
        "batch": {"x": x, "y": torch.ones(3), "nested": [shared, {"deep": torch.zeros(2)}]},
        "pair": Pair(x[0], torch.zeros(1)), "tup": shared, "frozen": Frozen(torch.ones(2)),
        "mut": Mutable(torch.ones(2)), "lst": [torch.ones(1), 7], "leaf": leaf,
        "st": frozenset({torch.ones(1)}), "n": 3, "slotted": Slotted(torch.ones(1)),
        "fslots": [FrozenSlotted(torch.ones(1))],
    }


def test_loose_tensors_are_rebound_sharing_what_they_shared() -> None:
    ns = loose_namespace()
    old = dict(ns)
    batch, nested, lst, mut = ns["batch"], ns["batch"]["nested"], ns["lst"], ns["mut"]
    report = moves.move_all("meta", ns)
    assert report.ok and devices(ns) == {"meta"}
    x = ns["x"]
    assert x is not old["x"] and ns["alias"] is x and ns["batch"]["x"] is x  # one tensor
    for name in ("view", "col"):
        assert ns[name]._base is x and ns[name].storage_offset() == old[name].storage_offset()
        assert ns[name].stride() == old[name].stride() and ns[name].shape == old[name].shape
    assert ns["det"].untyped_storage()._cdata == x.untyped_storage()._cdata
    assert ns["det"]._base is None and ns["pair"].x._base is x
    # mutable containers are updated in place, immutable ones rebuilt and rebound
    assert ns["batch"] is batch and batch["nested"] is nested and ns["lst"] is lst
    assert ns["mut"] is mut and mut.x.device.type == "meta"
    assert type(ns["pair"]) is Pair and ns["pair"] is not old["pair"]
    assert type(ns["frozen"]) is Frozen and ns["frozen"].label == "f"
    assert ns["tup"] is not old["tup"] and ns["tup"][0] is x and ns["tup"][1] == 1
    assert nested[0] is ns["tup"]  # one tuple referenced twice: rebuilt once
    assert type(ns["st"]) is frozenset and next(iter(ns["st"])).device.type == "meta"
    assert ns["slotted"] is old["slotted"] and ns["slotted"].x.device.type == "meta"
    assert ns["fslots"] is old["fslots"] and ns["fslots"][0].x.device.type == "meta"
    assert type(ns["fslots"][0]) is FrozenSlotted and ns["fslots"][0].n == 1
    assert ns["n"] == 3
    # a leaf that required grad is still a leaf that requires grad, and keeps its grad
    leaf = ns["leaf"]
    assert leaf.is_leaf and leaf.requires_grad and leaf.grad.device.type == "meta"


def test_a_lone_view_moves_as_a_compact_copy() -> None:
    big = torch.zeros(1000, 10)
    ns = {"row": big[3]}
    report = moves.move_all("meta", ns)
    assert ns["row"].shape == (10,) and ns["row"]._base is None
    assert report.bytes_by_device == {"meta": 40}


def test_graph_tensors_are_detached_with_a_note() -> None:
    w = torch.randn(3, requires_grad=True)
    ns = {"y": w * 2, "w": w}
    report = moves.move_all("meta", ns)
    assert not ns["y"].requires_grad and ns["w"].requires_grad
    assert any("autograd graph" in n and "y" in n for n in report.notes)


def test_after_move_all_there_are_no_device_findings() -> None:
    model = Trappy()
    opt = trained(model)
    ns = {"model": model, "opt": opt, **loose_namespace()}
    model.fc.to("meta")  # a split model, stray optimizer state, loose tensors: plenty to find
    assert {f.kind for f in diagnose(take_snapshot(ns))} & set(DEVICE_KINDS)
    assert moves.move_all("meta", ns).ok
    assert not [f for f in diagnose(take_snapshot(ns)) if f.kind in DEVICE_KINDS]


# --- refusals -----------------------------------------------------------------------------

def test_dispatched_models_are_refused_and_their_tensors_stay_put() -> None:
    model = Net()
    model.hf_device_map = {"enc": 0, "dec": "cpu"}
    w = model.enc.weight
    hooked = nn.Linear(2, 2)
    hooked.dec = nn.Linear(2, 2)
    hooked.dec._hf_hook = object()
    ns = {"model": model, "hooked": hooked, "alias": w, "x": torch.ones(2)}
    report = moves.move_all("meta", ns)
    # NB: refused as a whole: moving the inputs of a model that stays would break it
    assert not report.ok and ns["x"].device.type == "cpu" and report.moved == ()
    assert report.error == ("model, hooked cannot be moved (see below), so nothing was moved; "
                            "to leave them out, name the objects to move")
    assert [p for p, _ in report.refused] == ["model", "hooked"]
    assert all("accelerate" in why for _, why in report.refused)
    assert w.device.type == "cpu" and ns["alias"] is w
    assert hooked.weight.device.type == "cpu"
    rest = moves.move_all("meta", ns, names=["x"])
    assert rest.ok and ns["x"].device.type == "meta"


def test_dtensors_are_refused() -> None:
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import Shard, distribute_tensor
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", rank=0, world_size=2, store=FakeStore())
    try:
        d = distribute_tensor(torch.randn(4, 4), init_device_mesh("cpu", (2,)), [Shard(0)])
        ns = {"d": d, "x": torch.ones(2)}
        report = moves.move_all("meta", ns)
        assert not report.ok and "nothing was moved" in (report.error or "")
        assert ns["d"] is d and d.device.type == "cpu" and ns["x"].device.type == "cpu"
        assert report.refused == (("d", "holds DTensors: their placement is managed by "
                                         "torch.distributed (redistribute them instead)"),)
    finally:
        dist.destroy_process_group()


def test_dataparallel_without_cuda_just_moves_its_module() -> None:
    dp = nn.DataParallel(nn.Linear(2, 2))  # no CUDA here: device_ids == []
    w = dp.module.weight
    report = moves.move_all("meta", {"dp": dp})
    assert report.ok and not report.refused
    assert dp.module.weight is w and w.device.type == "meta"


# --- dry runs and progress ----------------------------------------------------------------

def test_dry_run_reports_the_plan_and_changes_nothing() -> None:
    model = Trappy()
    opt = trained(model)
    ns = {"model": model, "opt": opt, **loose_namespace()}
    before = {k: v for k, v in ns.items()}
    snap_before = take_snapshot(ns)
    report = moves.move_all("meta", ns, dry_run=True)
    assert report.ok and report.dry_run and report.target == "meta"
    assert all(ns[k] is v for k, v in before.items())
    assert [t.device for t in take_snapshot(ns).tensors()] == [
        t.device for t in snap_before.tensors()]
    assert {m.path for m in report.moved} == {
        "model", "opt", "x", "batch", "pair", "frozen", "mut", "lst", "leaf", "st", "view", "col",
        "det", "slotted", "fslots"}
    assert set(report.bytes_by_device) == {"meta"}
    assert report.bytes_by_device["meta"] == sum(m.nbytes for m in report.moved)
    assert any("register_buffer" in n for n in report.notes)
    real = moves.move_all("meta", ns)
    assert real.moved == report.moved and real.bytes_by_device == report.bytes_by_device


def test_progress_reports_bytes_up_to_the_total() -> None:
    ns = {f"t{i}": torch.ones(256) for i in range(5)}
    seen: list[tuple[int, int]] = []
    report = moves.move_all("meta", ns, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i * 1024, 5 * 1024) for i in range(6)]
    assert report.bytes_by_device == {"meta": 5 * 1024}


def test_nothing_to_move_is_ok_and_says_so() -> None:
    ns = {"x": torch.ones(2, device="meta")}
    report = moves.move_all("meta", ns)
    assert report.ok and report.moved == () and ns["x"].device.type == "meta"
    from devicelens.render.text import report_text

    assert report_text(report) == "Nothing to move: everything in scope is already on meta."


def test_the_package_level_api_is_the_engine() -> None:
    import devicelens

    model = nn.Linear(2, 2)
    w = model.weight
    ns = {"model": model, "x": torch.ones(2)}
    report = devicelens.move_all("meta", ns, names=["model"], dry_run=True)
    assert isinstance(report, moves.MoveReport) and report.dry_run and w.device.type == "cpu"
    assert devicelens.move_all("meta", ns, names=["model"]).ok and model.weight is w
    (fix,) = [f for f in devicelens.diagnose(devicelens.snapshot(ns)) if f.kind == "loose_device"]
    assert devicelens.apply_fix(fix, ns).ok and ns["x"].device.type == "meta"
