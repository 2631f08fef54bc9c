"""What a simulated device does otherwise than a GPU, undone for a rehearsal. NB: the forked
child only (:mod:`._sandbox`): each context manager patches torch for the attempt it wraps.

FakeTensor kernels leave a convolution's and an embedding's devices unchecked, and
``Module.to`` between two fakes swaps tensors where a GPU sets ``.data``: a rehearsal must
neither pass what a GPU refuses nor refuse what a GPU does.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

#: ``torch.nn.functional`` ops whose simulated (fake) kernels do not check their tensors'
#: devices, where a GPU's raise: a convolution, an embedding
_UNCHECKED = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "embedding")


@contextlib.contextmanager
def fakes_checked_as_on_a_gpu() -> Iterator[None]:
    """The ops of :data:`_UNCHECKED` raise PyTorch's own device error on simulated tensors of
    two devices, one a GPU, as they do on a GPU (``meta`` beside the cpu is left to torch,
    which checks it). Without it a rehearsal could say "verified" of a fix that leaves a
    convolution's input on the cpu beside its weights on ``cuda:0``: the simulated kernel runs
    it, a real one refuses."""
    import torch
    import torch.nn.functional as F
    from torch._subclasses.fake_tensor import FakeTensor

    from ..running._mode import DeviceGuard

    saved = {n: getattr(F, n) for n in _UNCHECKED}
    modes: Any = torch.overrides._get_current_function_mode_stack

    def checked(fn: Any) -> Any:
        @functools.wraps(fn)  # NB: a guard names the op by its function's name
        def run(*args: Any, **kwargs: Any) -> Any:
            ts = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
            # NB: under a guard (a rehearsal on cuda:0, ``%%cuda_safe``) every op is checked
            # already, with the guard's own report
            if any(isinstance(t, FakeTensor) for t in ts) and not any(
                    isinstance(m, DeviceGuard) for m in modes()):
                devices = list(dict.fromkeys(
                    str(t.device) for t in ts if t.dim() or t.device.type != "cpu"))
                if len(devices) > 1 and any(d.startswith("cuda") for d in devices):
                    raise RuntimeError(
                        "Expected all tensors to be on the same device, but found at least two "
                        f"devices, {devices[0]} and {devices[1]}!")
            return fn(*args, **kwargs)
        return run

    for n, fn in saved.items():
        setattr(F, n, checked(fn))
    try:
        yield
    finally:
        for n, fn in saved.items():
            setattr(F, n, fn)


@contextlib.contextmanager
def fakes_swap_as_they_move() -> Iterator[None]:
    """``Module.to`` between two simulated devices, as between two real ones, whatever else
    holds the parameters (:func:`swap_past_references`), for the attempt it wraps."""
    import torch

    real: Any = torch.utils.swap_tensors
    torch.utils.swap_tensors = swap_past_references(real)
    try:
        yield
    finally:
        torch.utils.swap_tensors = real


def swap_past_references(real: Any) -> Any:
    """``real`` (``torch.utils.swap_tensors``), made without its reference checks where it
    refuses a simulated tensor for references held elsewhere.

    A real ``cuda:0`` -> ``cuda:1`` move sets each parameter's ``.data``; a FakeTensor is not
    of a type ``.data`` takes, so ``Module.to`` swaps it, which refuses a tensor other handles
    still use: in an IPython kernel the failed op's parameters stay held after its traceback is
    cleared, so a fix that moved the model said "not verified: Couldn't swap Linear.weight".
    Such a refusal is the simulation's, and the swap is made without those checks
    (:func:`._simulate._swap_unchecked`); any other swap is torch's own. NB: also the corpus
    harness's, for its simulated GPUs."""
    from torch._subclasses.fake_tensor import FakeTensor

    from ._simulate import _swap_unchecked

    def swap(t1: Any, t2: Any) -> None:
        try:
            real(t1, t2)
        except RuntimeError as e:
            if not ((isinstance(t1, FakeTensor) or isinstance(t2, FakeTensor))
                    and str(e).startswith(_HELD)):
                raise
            _swap_unchecked(t1, t2)

    return swap


#: how ``swap_tensors`` refuses a tensor held elsewhere
_HELD = ("Expected use_count", "Cannot swap t1 because it has weak",
         "Cannot swap t2 because it has weak")
