"""Fake cuda tensors where no real GPU can be touched: in the sandbox's child.

Two builds of torch reach a real GPU while faking one. A CPU build cannot run some ops on a
fake cuda tensor at all (C++ indexing needs a device guard it lacks; an RNN kernel is not
linked). A CUDA build can, but the child forked from a process that has used CUDA cannot use
CUDA: every CUDA call there fails with "CUDA error: initialization error", and torch's own
bindings make such calls around fake tensors (the device guard of ``t[...]``, the one real
tensor ``FakeTensor`` allocates on a GPU the first time it fakes one). Both gaps are crossed
the same way: the op runs again on ``meta`` twins of its tensors, its results put back on the
simulated GPU; and the first-fake allocation, which only autograd needs (never run in a
rehearsal), is skipped.

NB: runs only in the forked child; every patch here dies with it.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_leaves, tree_map

#: what torch says of an op it cannot run on a fake cuda tensor: a CPU build, and the child of
#: a process that used CUDA (a CUDA build)
NOT_SIMULATED = ("not linked with support for cuda", "from the 'CUDA' backend",
                 "no fake impl or Meta kernel", "CUDA error: initialization error")


def no_real_gpu() -> None:
    """Nothing in the child reaches for the real GPU on its own: ``FakeTensor`` skips the one
    real tensor it allocates on the GPU it fakes, the fake mode moves no constant there, and in
    the child of a CUDA process
    ``.to("cuda:0")`` no longer asks CUDA to start (it would refuse: "Cannot re-initialize CUDA
    in forked subprocess") before the fake mode makes the fake tensor.

    NB: torch allocates that tensor for autograd's sake, which a rehearsal never runs on a fake
    cuda tensor; what still calls CUDA after this fails with "initialization error", and
    :func:`run` shapes it on meta.
    """
    from torch._subclasses import fake_tensor

    for name in ("init_gpu_context", "init_cuda_context"):  # NB: the name before torch 2.5
        if hasattr(fake_tensor, name):
            setattr(fake_tensor, name, _nothing)
    # NB: a fake mode that sees a GPU (torch.cuda.is_available(), true on a machine with one,
    # and where one is simulated) moves a constant to it for real (`x.to("cuda:0")` of a cpu
    # tensor, `torch.tensor(...)`); it must fake those too
    fake_tensor.FakeTensorMode.avoid_device_init = property(  # type: ignore[method-assign,assignment]
        lambda self: True)
    cuda = torch.cuda
    if getattr(cuda, "_is_in_bad_fork", lambda: False)():
        cuda._lazy_init = _nothing


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def not_simulated(error: BaseException) -> bool:
    """Whether ``error`` is torch saying it cannot run an op on a fake cuda tensor here."""
    return isinstance(error, (RuntimeError, NotImplementedError)) and any(
        m in str(error) for m in NOT_SIMULATED)


def run(func: Any, args: Any, kwargs: Any) -> Any:
    """``func(*args, **kwargs)``; where torch cannot run it on the fake cuda tensors given, on
    their ``meta`` twins (:func:`on_meta`)."""
    try:
        return func(*args, **kwargs)
    except (RuntimeError, NotImplementedError) as e:
        if not not_simulated(e):
            raise
        return on_meta(func, args, kwargs, e)


def on_meta(func: Any, args: Any, kwargs: Any, error: BaseException) -> Any:
    """``func`` on ``meta`` twins of its tensors, its results put on the one simulated GPU its
    tensors are on (the guard has checked they agree); ``error`` again where they are on
    several. NB: shapes, dtypes and devices are right; a view is a new tensor, which no
    value-free rehearsal can tell apart."""
    flat = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
    gpus = {t.device for t in flat if t.device.type == "cuda"}
    if len(gpus) != 1:
        raise error
    (gpu,) = gpus
    try:
        out = func(*tree_map(_meta, args), **tree_map(_meta, kwargs))
    except Exception as e:
        if type(e).__name__ in ("DynamicOutputShapeException", "DataDependentOutputException"):
            raise e from None  # NB: needs values, like nonzero: that is what the user is told
        raise error from None
    return tree_map(lambda t: torch.empty_strided(t.shape, t.stride(), dtype=t.dtype,
                                                  device=gpu)
                    if isinstance(t, torch.Tensor) else t, out)


def _meta(x: Any) -> Any:
    if not isinstance(x, torch.Tensor):
        return x
    return torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device="meta")


class MetaTwins(TorchFunctionMode):
    """Inside: every torch function runs as :func:`run` runs it (a fix rehearsed on fake
    tensors, in the child of a process that uses its real GPU)."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return run(func, args, kwargs or {})
