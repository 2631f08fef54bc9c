"""``devicelens.check(*objects)`` and ``devicelens.guard(dtype=False)``: the plain-Python doors,
on real cpu / ``meta`` tensors and simulated GPUs (``FakeTensorMode``: real ``cuda:N`` metadata).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch
from torch import nn

import devicelens
from devicelens import DeviceMismatchError
from tests.conftest import to_in_place

HERE = "test_scripts_check.py"


def line_of(text: str) -> int:
    """The line of this file that holds ``text`` (a report cites it)."""
    src = Path(__file__).read_text().splitlines()
    return next(i for i, s in enumerate(src, 1) if s.strip() == text)


def test_check_passes_when_everything_agrees_and_names_the_stray_when_not():
    model = nn.Linear(8, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batch = {"x": torch.randn(4, 8), "y": torch.tensor([0, 1, 1, 0])}
    assert devicelens.check(model, optimizer, batch) is None
    to_in_place(model, "meta")
    with pytest.raises(DeviceMismatchError) as err:
        devicelens.check(model, optimizer, batch)
    n = line_of("devicelens.check(model, optimizer, batch)")
    assert str(err.value) == (
        "check() got tensors on different devices: cpu, meta\n"
        "  culprit: batch['x'] (float32[4, 8] on cpu); expected meta\n"
        "  culprit: batch['y'] (int64[4] on cpu); expected meta\n"
        f"  at: {HERE} line {n} (in test_check_passes_when_everything_agrees_and_names_the_stray"
        "_when_not): devicelens.check(model, optimizer, batch)\n"
        "  note: batch['x'], batch['y'] are on cpu but model is on meta: using them with model "
        "will fail.\n"
        "  fix:\n"
        "      batch['x'] = batch['x'].to(next(model.parameters()).device)\n"
        "      batch['y'] = batch['y'].to(next(model.parameters()).device)")
    assert err.value.culprits == ("batch['x']", "batch['y']")


def test_check_names_optimizer_state_left_behind():
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters())
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    opt.step()
    to_in_place(model, "meta")  # parameters move, Adam's state does not
    with pytest.raises(DeviceMismatchError) as err:
        devicelens.check(model, opt)
    text = str(err.value)
    assert text.startswith("check() got tensors on different devices: cpu, meta\n"
                           "  culprit: opt.state[model.weight]['exp_avg'] (float32[2, 4] on cpu)")
    assert "note: 4 state tensors of opt are on cpu while their parameters are on meta" in text
    assert "for _p, _s in opt.state.items():" in text


def test_check_dtype_only_when_asked():
    model = nn.Linear(4, 2)
    x = torch.randn(3, 4, dtype=torch.float64)
    assert devicelens.check(model, x) is None  # dtype=False, as the guard's default
    with pytest.raises(DeviceMismatchError) as err:
        devicelens.check(model, x, dtype=True)
    assert str(err.value).splitlines()[:2] == [
        "check() got tensors on different dtypes: float32, float64",
        "  culprit: x (float64[3, 4] on cpu); expected float32"]
    assert str(err.value).endswith("fix:\n      x = x.float()")


def test_check_on_a_rank_blames_a_model_on_another_ranks_gpu(monkeypatch, fake_cuda):
    """Simulated torchrun rank 1 of 2 (its environment) with simulated GPUs (fake cuda:N)."""
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    for k, v in dict(RANK="1", WORLD_SIZE="2", LOCAL_RANK="1", LOCAL_WORLD_SIZE="2").items():
        monkeypatch.setenv(k, v)
    local_rank = 1
    model = fake_cuda.to(nn.Linear(4, 2), "cuda:0")
    x = fake_cuda.randn(3, 4, device=f"cuda:{local_rank}")
    with pytest.raises(DeviceMismatchError) as err:
        devicelens.check(model, x)
    text = str(err.value)
    assert text.splitlines()[:2] == [
        "check() got tensors on different devices: cuda:0, cuda:1",
        "  culprit: model.weight (float32[2, 4] on cuda:0); expected cuda:1"]
    assert "note: model is on cuda:0 on every rank: the code does not use LOCAL_RANK" in text
    # the batch is right; "move x to the model" would be the wrong advice here
    assert text.endswith('fix:\n      model.to(f"cuda:{local_rank}")')


def test_guard_is_a_context_manager_naming_the_callers_variables():
    model = to_in_place(nn.Linear(8, 4), "meta")
    x = torch.randn(2, 8)
    with pytest.raises(DeviceMismatchError) as err, devicelens.guard():
        model(x)
    assert str(err.value).splitlines()[:2] == [
        "linear() got tensors on different devices: cpu, meta",
        "  culprit: x (float32[2, 8] on cpu), argument 1; expected meta"]
    assert torch.overrides._get_current_function_mode_stack() == []  # left as it was
    x64 = torch.randn(2, 8, dtype=torch.float64)
    cpu_model = nn.Linear(8, 4)
    with devicelens.guard():
        (x64 * 2).sum()  # dtype mixes are allowed by default
    with pytest.raises(DeviceMismatchError) as err, devicelens.guard(dtype=True):
        cpu_model(x64)
    assert str(err.value).startswith("linear() got tensors on different dtypes: float32, float64")


def test_guard_stays_callable_once_its_subpackage_is_imported():
    """``devicelens.guard`` is both the public function and the subpackage (importing
    ``devicelens.guard.rehearsal`` rebinds the name): the subpackage itself is callable."""
    import devicelens.guard.rehearsal

    assert {"check", "guard"} <= set(devicelens.__all__)
    assert callable(devicelens.guard) and devicelens.guard is sys.modules["devicelens.guard"]
    assert devicelens.guard().check_dtype is False
    from devicelens import guard

    assert isinstance(guard(dtype=True), guard.DtypeGuard)
