"""Ops torch cannot run on a fake cuda tensor in the sandbox's child run on ``meta`` twins.

A CUDA build's child, forked from a kernel that has used its GPU, fails every real CUDA call
("CUDA error: initialization error"), and torch's bindings make some around fake tensors (the
device guard of ``t[...]``). Here, on a CPU build, an op that fails that way stands in for one;
``tests/gpu/`` runs the real thing on a machine with a GPU.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from devicelens.guard.rehearsal import _twins

FORKED = "CUDA error: initialization error"


def needs_the_real_gpu(t: torch.Tensor, start: int = 1) -> torch.Tensor:
    """``t[start:]``, refusing a tensor that is not on meta as a forked CUDA child does."""
    if t.device.type != "meta":
        raise torch.AcceleratorError(FORKED) if hasattr(torch, "AcceleratorError") \
            else RuntimeError(FORKED)
    return t[start:].t()


def test_an_op_the_real_gpu_would_run_is_shaped_on_meta_and_put_back(fake_cuda: Any) -> None:
    with fake_cuda:
        t = torch.empty(5, 3, device="cuda:1")
        out = _twins.run(needs_the_real_gpu, (t,), {"start": 2})
    assert (out.shape, out.stride(), out.dtype, out.device) == (
        torch.Size([3, 3]), (1, 3), torch.float32, torch.device("cuda:1"))


def test_any_other_error_is_the_code_s_own(fake_cuda: Any) -> None:
    def wrong(t: torch.Tensor) -> torch.Tensor:
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (5x3 and 4x4)")

    with fake_cuda, pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        _twins.run(wrong, (torch.empty(5, 3, device="cuda:0"),), {})


def test_tensors_on_two_gpus_are_not_put_on_either(fake_cuda: Any) -> None:
    def both(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if a.device.type != "meta":
            raise RuntimeError(FORKED)
        return a + b

    with fake_cuda, pytest.raises(RuntimeError, match=FORKED):
        _twins.run(both, (torch.empty(2, device="cuda:0"), torch.empty(2, device="cuda:1")), {})


def test_the_child_reaches_for_no_real_gpu(monkeypatch: Any) -> None:
    """The fake mode's first allocation on the GPU is skipped, it moves no constant to a GPU it
    sees, and in the child of a CUDA process (a "bad fork", as torch calls it) CUDA is not asked
    to start again."""
    from torch._subclasses import fake_tensor

    name = next(n for n in ("init_gpu_context", "init_cuda_context") if hasattr(fake_tensor, n))
    monkeypatch.setattr(fake_tensor, name, getattr(fake_tensor, name))
    monkeypatch.setattr(torch.cuda, "_lazy_init", torch.cuda._lazy_init)
    mode = fake_tensor.FakeTensorMode
    # NB: torch's own reading (an earlier in-process rehearsal test may have patched it)
    monkeypatch.setattr(mode, "avoid_device_init",
                        property(lambda self: not torch.cuda.is_available()))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)  # as on a machine with a GPU
    assert not mode(allow_non_fake_inputs=True).avoid_device_init
    _twins.no_real_gpu()
    assert getattr(fake_tensor, name) is _twins._nothing
    assert mode(allow_non_fake_inputs=True).avoid_device_init  # no constant moved there for real
    assert torch.cuda._lazy_init is not _twins._nothing  # NB: not a forked child here
    monkeypatch.setattr(torch.cuda, "_is_in_bad_fork", lambda: True)
    _twins.no_real_gpu()
    assert torch.cuda._lazy_init is _twins._nothing


def test_the_mode_runs_every_torch_function_that_way(fake_cuda: Any) -> None:
    calls: list[str] = []

    def real_gpu_getitem(t: torch.Tensor, idx: Any) -> torch.Tensor:
        calls.append(t.device.type)
        if t.device.type != "meta":
            raise RuntimeError(FORKED)
        return torch.Tensor.__getitem__(t, idx)

    with fake_cuda:
        t = torch.empty(4, 6, device="cuda:0")
        with _twins.MetaTwins() as mode:
            out = mode.__torch_function__(real_gpu_getitem, (), (t, (slice(1, 3), 0)))
    assert calls == ["cuda", "meta"]
    assert (out.shape, out.device) == (torch.Size([2]), torch.device("cuda:0"))


def test_the_child_of_a_cuda_process_is_told_the_gpus_its_parent_sees(monkeypatch: Any) -> None:
    """Its own ``torch.cuda`` would have to call CUDA, which fails there."""
    from devicelens.guard.rehearsal import _gpus
    from devicelens.guard.rehearsal._sandbox import run_forked

    assert not _gpus.seen()  # NB: a CPU build never has
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    assert _gpus.seen()

    def child() -> tuple[Any, ...]:
        def refused() -> int:
            raise RuntimeError(FORKED)

        torch.cuda.current_device = refused  # as CUDA answers a forked child
        _gpus.as_seen()
        return (torch.cuda.device_count(), torch.cuda.current_device(), torch.cuda.is_available())

    out = run_forked(child, 30)
    assert (out.problem, out.value) == ("", (2, 1, True))
    assert torch.cuda.current_device() == 1  # the parent's own, untouched
