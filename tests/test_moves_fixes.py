"""Applying findings' fixes (one, or all at once), dtype casts that train for real on the CPU,
and the ``%devices --to/--fix/--dry-run`` magic through a real IPython shell."""

from __future__ import annotations

import io
from typing import Any

import pytest
import torch
from IPython.core.error import UsageError
from torch import nn

from devicelens import moves
from devicelens.analysis import DEVICE_KINDS, DTYPE_KINDS, Finding, diagnose
from devicelens.inspect import take_snapshot
from devicelens.render.text import report_text

from .conftest import to_in_place


def findings(ns: dict[str, Any], kind: str | None = None) -> list[Finding]:
    return [f for f in diagnose(take_snapshot(ns)) if kind is None or f.kind == kind]


def one(ns: dict[str, Any], kind: str) -> Finding:
    (f,) = findings(ns, kind)
    return f


def adam(model: nn.Module, x: torch.Tensor) -> torch.optim.Optimizer:
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model(x).sum().backward()
    opt.step()
    return opt


# --- dtype fixes: real values, a real training step -----------------------------------------

def mixed_dtype() -> dict[str, Any]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Linear(8, 2))
    model[2].double()
    model.forward = lambda x: model[2](model[1](model[0](x)).double())  # type: ignore
    opt = adam(model, torch.randn(6, 4))
    return {"model": model, "opt": opt}


def test_a_dtype_fix_casts_only_the_culprits_in_place_and_training_works() -> None:
    ns = mixed_dtype()
    model, opt = ns["model"], ns["opt"]
    w2, w0 = model[2].weight, model[0].weight
    before = {k: v.clone() for k, v in model.state_dict().items()}
    state = opt.state[w2]
    report = moves.apply_fix(one(ns, "module_mixed_dtype"), ns)
    assert report.ok, report.error
    assert [(m.path, m.source, m.target) for m in report.moved] == [
        ("model", "float64", "float32"), ("opt", "float64", "float32")]
    assert model[2].weight is w2 and w2.dtype == torch.float32 and w0.dtype == torch.float32
    assert torch.equal(w2.detach(), before["2.weight"].float())  # values kept
    assert w2.grad.dtype == torch.float32 and opt.state[w2] is state
    assert state["exp_avg"].dtype == torch.float32 and state["step"].dtype == torch.float32
    assert model[1].num_batches_tracked.dtype == torch.int64  # not a culprit: untouched
    assert not [f for f in findings(ns) if f.kind in DTYPE_KINDS]
    model.forward = nn.Sequential.forward.__get__(model)  # now one dtype: the plain forward
    opt.zero_grad()
    model(torch.randn(6, 4)).sum().backward()
    opt.step()
    assert not torch.equal(w2.detach(), before["2.weight"].float())  # it trained


def test_a_loose_dtype_fix_rebinds_the_cast_tensor() -> None:
    model = nn.Linear(4, 2)
    batch = {"x": torch.randn(3, 4, dtype=torch.float64), "n": torch.tensor(3)}
    x64 = batch["x"]
    ns = {"model": model, "batch": batch}
    report = moves.apply_fix(one(ns, "loose_dtype"), ns)
    assert report.ok and ns["batch"] is batch and batch["x"].dtype == torch.float32
    assert torch.equal(batch["x"], x64.float()) and batch["n"].dtype == torch.int64
    assert model(batch["x"]).shape == (3, 2)


# --- device fixes -------------------------------------------------------------------------

def split_model() -> dict[str, Any]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 64), nn.Linear(64, 2))
    opt = adam(model, torch.randn(2, 4))
    to_in_place(model[0], "meta")
    return {"model": model, "opt": opt}


def test_module_split_fix_moves_the_strays_and_their_state() -> None:
    ns = split_model()
    model, opt = ns["model"], ns["opt"]
    w1 = model[1].weight
    report = moves.apply_fix(one(ns, "module_split"), ns)
    assert report.ok and model[1].weight is w1 and w1.device.type == "meta"
    assert opt.state[w1]["exp_avg"].device.type == "meta"
    assert opt.state[w1]["step"].device.type == "cpu"


def test_trap_fixes_move_the_attribute_and_the_list_held_module() -> None:
    class M(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.mask = torch.ones(4)
            self.heads = [nn.Linear(4, 2)]

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.heads[0](self.fc(x) * self.mask)  # NB: both read unmoved

    m = M()
    to_in_place(m, "meta")  # Module.to misses both traps
    ns = {"m": m}
    head_w = m.heads[0].weight
    assert moves.apply_fix(one(ns, "trap_attribute"), ns).ok
    assert m.mask.device.type == "meta" and m.heads[0].weight.device.type == "cpu"
    report = moves.apply_fix(one(ns, "trap_module"), ns)
    assert report.ok and m.heads[0].weight is head_w and head_w.device.type == "meta"
    assert "m.heads = torch.nn.ModuleList(m.heads)" in "\n".join(report.notes)
    assert not [f for f in findings(ns) if f.kind in DEVICE_KINDS]


def test_optimizer_state_fix_follows_each_parameter() -> None:
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = adam(model, torch.randn(2, 4))
    to_in_place(model, "meta")
    ns = {"model": model, "opt": opt}
    state = opt.state[model.weight]
    report = moves.apply_fix(one(ns, "optimizer_state"), ns)
    assert report.ok and opt.state[model.weight] is state
    assert {k: v.device.type for k, v in state.items()} == {
        "step": "cpu", "exp_avg": "meta", "exp_avg_sq": "meta"}
    model(torch.randn(2, 4, device="meta")).sum().backward()
    opt.step()


def broken() -> dict[str, Any]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))
    opt = adam(model, torch.randn(3, 4))
    to_in_place(model, "meta")
    return {"model": model, "opt": opt, "w": torch.ones(2),
            "batch": {"x": torch.randn(3, 4, dtype=torch.float64), "n": torch.tensor(3)}}


def test_apply_all_fixes_leaves_no_device_or_dtype_findings() -> None:
    ns = broken()
    assert {f.kind for f in findings(ns)} == {"optimizer_state", "loose_device", "loose_dtype"}
    dry = moves.apply_all_fixes(ns, dry_run=True)
    assert dry.ok and dry.dry_run and ns["batch"]["x"].device.type == "cpu"
    report = moves.apply_all_fixes(ns)
    assert report.ok and report.moved == dry.moved
    x = ns["batch"]["x"]
    assert x.device.type == "meta" and x.dtype == torch.float32  # device and dtype, one copy
    assert ns["batch"]["n"].device.type == "cpu"  # a 0-dim CPU scalar is fine where it is
    assert not [f for f in findings(ns) if f.kind in DEVICE_KINDS + DTYPE_KINDS]
    nothing = moves.apply_all_fixes(ns)
    assert (nothing.ok, nothing.moved, nothing.target, nothing.notes) == (True, (), "", ())
    assert report_text(nothing) == "Nothing to fix: no automatic fix has anything to do here."


def test_a_stale_finding_reports_and_changes_nothing() -> None:
    ns = broken()
    (fix,) = [f for f in findings(ns, "loose_device") if f.objects == ("batch",)]
    w = ns["w"]
    del ns["batch"]
    report = moves.apply_fix(fix, ns)
    assert not report.ok and "batch" in report.error and "no longer exists" in report.error
    assert ns["w"] is w and w.device.type == "cpu"


def test_a_finding_without_an_automatic_fix_is_a_report() -> None:
    m = nn.Linear(2, 2)
    m.mask = torch.ones(2)
    ns = {"m": m}
    latent = one(ns, "trap_latent")
    report = moves.apply_fix(latent, ns)
    assert (report.ok, report.moved) == (False, ())
    assert report.error == f"finding {latent.id!r} has no automatic fix; apply its code by hand"


# --- the magic ----------------------------------------------------------------------------

def setup(ip: Any) -> None:
    ip.run_cell("import torch\nfrom torch import nn\nmodel = nn.Linear(4, 2)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nx = torch.ones(3, 4)\n"
                "w = model.weight\n", store_history=False)


def test_magic_to_dry_run_then_for_real(ip: Any) -> None:
    setup(ip)
    ns = ip.user_ns
    dry = ip.run_line_magic("devices", "--to meta --dry-run")
    assert dry.ok and dry.dry_run and ns["x"].device.type == "cpu"
    text = ip.display_formatter.format(dry)[0]["text/plain"]  # the table, not the dataclass
    # model (weight, bias) and x: 3 tensors of 2 objects; the optimizer holds no state yet
    assert text.splitlines()[0] == "Would move 3 tensors to meta (2 objects, 88 B)."
    report = ip.run_line_magic("devices", "--to meta")
    assert report.ok and ns["x"].device.type == "meta"
    assert ns["w"] is ns["model"].weight and ns["w"].device.type == "meta"


def test_magic_fix_and_names(ip: Any) -> None:
    setup(ip)
    ip.run_cell("model.to(torch.float64)", store_history=False)
    report = ip.run_line_magic("devices", "--fix")
    assert report.ok and ip.user_ns["x"].dtype == torch.float64  # x is the stray: cast
    report = ip.run_line_magic("devices", "x --to meta")
    assert report.ok and [m.path for m in report.moved] == ["x"]
    assert ip.user_ns["model"].weight.device.type == "cpu"


@pytest.mark.parametrize("bad", ["gpu", "cuda:99", "''", "cpu:1", "hpu"])
def test_magic_bad_device_is_a_usage_error_quoting_it(ip: Any, bad: str) -> None:
    setup(ip)
    x = ip.user_ns["x"]
    with pytest.raises(UsageError, match="device"):
        ip.run_line_magic("devices", f"--to {bad}")
    assert ip.user_ns["x"] is x


def test_console_progress_draws_only_for_big_moves() -> None:
    out = io.StringIO()
    bar = moves.console_progress(min_bytes=1000, stream=out)
    bar(0, 10)
    bar(10, 10)
    assert out.getvalue() == ""
    for done in (0, 500, 500, 1000):
        bar(done, 1000)
    lines = out.getvalue().split("\r")[1:]
    assert lines == ["devicelens: moving [..............................] 0 B / 1000 B",
                     "devicelens: moving [###############...............] 500 B / 1000 B",
                     "devicelens: moving [##############################] 1000 B / 1000 B\n"]
    out2 = io.StringIO()
    bar2 = moves.console_progress(min_bytes=1, stream=out2)
    bar2(5, 10)
    bar2.close()
    bar2.close()
    assert out2.getvalue().endswith("5 B / 10 B\n") and out2.getvalue().count("\n") == 1
