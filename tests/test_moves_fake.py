"""Moves across simulated ``cuda:0``/``cuda:1`` (FakeTensorMode; see tests/conftest.py): loose
tensors, modules with optimizer state, DataParallel bookkeeping, and the real mismatch error
that a move (or a fix) makes go away. NB: no autograd on fake cuda tensors (it aborts)."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import DEVICE_KINDS, diagnose
from devicelens.inspect import take_snapshot


def is_fake_on(t: torch.Tensor, device: str) -> bool:
    return type(t).__name__ == "FakeTensor" and str(t.device) == device


def test_loose_tensors_move_between_simulated_gpus(fake_cuda: Any) -> None:
    base = torch.randn(4, 4)
    real = {"base": base, "rows": base[1:], "det": base.detach()}  # NB: views made outside
    with fake_cuda, torch.no_grad():
        a = torch.randn(3, device="cuda:0")
        ns = {"a": a, "also_a": a, **real,
              "batch": {"a": a, "b": torch.ones(2, device="cuda:1")}, "pair": (a, 1)}
        batch = ns["batch"]
        report = moves.move_all("cuda:1", ns)
        assert report.ok and report.bytes_by_device == {"cuda:1": 12 + 64}
        new_a = ns["a"]
        assert is_fake_on(new_a, "cuda:1") and new_a is not a
        assert ns["also_a"] is new_a and batch["a"] is new_a and ns["batch"] is batch
        assert ns["pair"][0] is new_a and ns["pair"][1] == 1
        assert is_fake_on(ns["base"], "cuda:1") and ns["rows"]._base is ns["base"]
        assert ns["det"].untyped_storage()._cdata == ns["base"].untyped_storage()._cdata
        assert str(batch["b"].device) == "cuda:1"
        assert [(m.path, m.source, m.nbytes) for m in report.moved] == [
            ("a", "cuda:0", 12), ("base", "cpu", 64), ("rows", "cpu", 0), ("det", "cpu", 0)]


def test_cuda_devices_exist_only_while_simulated(fake_cuda: Any) -> None:
    with fake_cuda:
        assert str(moves.parse_device("cuda:5")) == "cuda:5"
        assert str(moves.parse_device("cuda")) == "cuda:0"
    with pytest.raises(ValueError, match="'cuda:5'"):
        moves.parse_device("cuda:5")


def fake_model(fake_cuda: Any) -> tuple[nn.Module, torch.optim.Optimizer]:
    model = fake_cuda.to(nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2)), "cuda:0")
    opt = torch.optim.Adam(model.parameters())
    with fake_cuda:
        for p in model.parameters():  # state by hand: no autograd on fake cuda
            opt.state[p] = {"step": torch.tensor(1.0), "exp_avg": torch.zeros_like(p),
                            "exp_avg_sq": torch.zeros_like(p)}
    return model, opt


def test_a_module_moves_between_simulated_gpus_in_place(fake_cuda: Any) -> None:
    model, opt = fake_model(fake_cuda)
    w = model[0].weight
    state = opt.state[w]
    with fake_cuda, torch.no_grad():
        x = torch.randn(2, 4, device="cuda:1")
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            model(x)
        report = moves.move_all("cuda:1", {"model": model, "opt": opt, "x": x})
        assert report.ok, report.error
        assert model[0].weight is w and str(w.device) == "cuda:1"
        assert opt.state[w] is state and str(state["exp_avg"].device) == "cuda:1"
        assert state["step"].device.type == "cpu"
        assert model(x).shape == (2, 2)  # the real device check now passes


def test_a_loose_device_fix_on_simulated_gpus(fake_cuda: Any) -> None:
    model, _opt = fake_model(fake_cuda)
    ns: dict[str, Any] = {"model": model, "batch": {"x": torch.randn(2, 4), "n": torch.tensor(2)}}
    with fake_cuda, torch.no_grad():
        (fix,) = [f for f in diagnose(take_snapshot(ns)) if f.kind == "loose_device"]
        assert moves.apply_fix(fix, ns).ok
        assert is_fake_on(ns["batch"]["x"], "cuda:0") and ns["batch"]["n"].device.type == "cpu"
        assert not [f for f in diagnose(take_snapshot(ns)) if f.kind in DEVICE_KINDS]
        assert model(ns["batch"]["x"]).shape == (2, 2)


def data_parallel(fake_cuda: Any) -> nn.DataParallel:  # type: ignore[type-arg]
    inner = fake_cuda.to(nn.Linear(4, 2), "cuda:0")
    dp = nn.DataParallel(inner)  # no CUDA here: give it the attributes a 2-GPU machine would
    dp.device_ids, dp.output_device, dp.src_device_obj = [0, 1], 0, torch.device("cuda:0")
    return dp


def test_dataparallel_is_made_consistent_with_its_new_device(fake_cuda: Any) -> None:
    dp = data_parallel(fake_cuda)
    w = dp.module.weight
    with fake_cuda, torch.no_grad():
        dry = moves.move_all("cuda:1", {"dp": dp}, dry_run=True)
        assert dp.device_ids == [0, 1] and str(w.device) == "cuda:0"
        assert dry.notes == ("dp.device_ids reordered to [1, 0] (output_device=1) so its module "
                             "lives on device_ids[0].",)
        assert moves.move_all("cuda:1", {"dp": dp}).ok
    assert dp.device_ids == [1, 0] and dp.output_device == 1
    assert dp.src_device_obj == torch.device("cuda:1")
    assert dp.module.weight is w and str(w.device) == "cuda:1"
    assert not [f for f in diagnose(take_snapshot({"dp": dp})) if f.kind in DEVICE_KINDS]


@pytest.mark.parametrize(("device", "code"), [
    ("cuda:2", 'dp = torch.nn.DataParallel(dp.module.to("cuda:2"), device_ids=[2, 0, 1], '
               'output_device=2)'),
    ("meta", 'dp = dp.module.to("meta")'),
])
def test_dataparallel_that_cannot_follow_is_refused_with_the_code(fake_cuda: Any, device: str,
                                                                  code: str) -> None:
    dp = data_parallel(fake_cuda)
    w = dp.module.weight
    with fake_cuda, torch.no_grad():
        report = moves.move_all(device, {"dp": dp})
    assert not report.ok and report.moved == ()
    ((path, why),) = report.refused
    assert path == "dp" and why.endswith(code)
    assert dp.device_ids == [0, 1] and str(w.device) == "cuda:0"


def test_the_dataparallel_fix_puts_the_module_on_device_ids_0(fake_cuda: Any) -> None:
    dp = data_parallel(fake_cuda)
    fake_cuda.to(dp.module, "cuda:1")
    w = dp.module.weight
    ns = {"dp": dp}
    with fake_cuda, torch.no_grad():
        (fix,) = [f for f in diagnose(take_snapshot(ns)) if f.kind == "dataparallel_device"]
        report = moves.apply_fix(fix, ns)
    assert report.ok and report.notes == () and dp.device_ids == [0, 1]
    assert dp.module.weight is w and str(w.device) == "cuda:0"
