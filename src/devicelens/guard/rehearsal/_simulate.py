"""The GPUs a rehearsal runs on, inside the sandbox's child: ``torch.cuda`` says they are there
(:mod:`._gpus`), ``"cuda"`` means the current one, and tensors on them are ``FakeTensor``s
(nothing computed).

A CPU build of torch cannot do everything on a fake cuda tensor; each gap is crossed or named:
autograd aborts the process, so the code runs under ``no_grad`` and ``backward()`` is skipped
(each trained parameter gets a zero gradient on its own device, which is where a GPU puts it);
C++ indexing needs a device guard the build lacks, so ``t[...]`` is shaped on ``meta``
(:mod:`._twins`, which also crosses a CUDA build's own gaps in a forked child).
NB: runs only in the forked child; every patch here dies with it.
"""

from __future__ import annotations

import contextlib
import copyreg
import gc
import linecache
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_map

from ...inspect._objects import trained_params
from . import _twins
from ._gpus import cuda, index, pretend


class StepsDone(BaseException):
    """``--steps N`` reached: the rehearsal ends here, by the user's request.

    NB: a ``BaseException``, so the user's own ``except Exception`` cannot swallow it.
    """


@dataclass
class Trace:
    """What the simulation saw while the code ran (sent back to the parent)."""

    devices: tuple[str, ...]
    on_device: bool = False  # some tensor reached a simulated device
    steps: int = 0  # optimizer steps taken
    by_steps: bool = False  # the run ended at --steps
    skipped: dict[str, str] = field(default_factory=dict)  # "cell line 9" -> what was skipped
    where: str = ""  # "cell line 7", where the run stopped
    code: str = ""  # that line's code
    lines: list[int] = field(default_factory=list)  # the failure's lines in the code's file
    guesses: list[Any] = field(default_factory=list)  # edits to try where a fix is advice


UserLine = Callable[[Any], "tuple[str, str] | None"]  # a frame -> ("cell line 7", code)


def user_line(is_user: Callable[[str], bool], label: Callable[[str], str]) -> UserLine:
    """The innermost frame of the user's code from ``frame`` outwards, as (where, code)."""
    def find(frame: Any) -> tuple[str, str] | None:
        while frame is not None:
            name = frame.f_code.co_filename
            if is_user(name):
                line = frame.f_lineno
                return f"{label(name)} line {line}", linecache.getline(name, line).strip()
            frame = frame.f_back
        return None
    return find


@contextlib.contextmanager
def simulated(trace: Trace, steps: int, where: UserLine) -> Iterator[None]:
    """Inside: the devices of ``trace`` exist; ``steps`` > 0 ends the run after that many
    optimizer steps (:class:`StepsDone`)."""
    torch._C._ensureCUDADeviceGuardSet()  # NB: a no-op guard for cuda: views work on fakes
    _twins.no_real_gpu()
    pretend(len(trace.devices))
    _skip(trace, where)
    _count_steps(trace, steps)
    from torch._subclasses.fake_tensor import FakeTensorMode

    # NB: Module.to() keeps each Parameter object, as on a GPU (an optimizer still holds them)
    torch.__future__.set_swap_module_params_on_conversion(True)
    _swap_freely()
    _params_from_class(FakeTensorMode)
    torch._C._set_grad_enabled(False)
    _no_grad_ever()
    with _Devices(trace):
        yield


def _swap_freely() -> None:
    """``swap_tensors`` (how ``Module.to`` keeps each Parameter) refuses a tensor with weak
    references, or held twice: the fake mode's converter keeps a weak one to each real tensor it
    has read, so it forgets them first (NB: only a cache: a real tensor read again is simply read
    again); a graph left by a step run earlier for real holds each trained parameter once more,
    so such graphs are let go (:func:`_release_graphs`)."""
    swap = torch.utils.swap_tensors

    def swap_tensors(t1: torch.Tensor, t2: torch.Tensor) -> None:
        mode = torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE)
        if mode is not None:
            describer = mode.fake_tensor_converter.meta_converter.describer
            describer.lookup_tensor.clear()
            describer.lookup_storage.clear()
        if not released and t1._use_count() > 1:  # type: ignore[attr-defined]
            # NB: once: autograd is off from here on, so no graph is made again
            _release_graphs()
            released.append(True)
        try:
            swap(t1, t2)  # type: ignore[no-untyped-call]
        except RuntimeError:
            # NB: still held (a weak reference, or a graph no scan found): torch's checks protect
            # a graph that may run backward again, and none runs here (autograd is off), so
            # the swap is made without them
            _swap_unchecked(t1, t2)

    released: list[bool] = []
    torch.utils.swap_tensors = swap_tensors


def _swap_unchecked(t1: torch.Tensor, t2: torch.Tensor) -> None:
    """``torch.utils.swap_tensors`` without its reference checks (child only): class, instance
    dict and slots exchanged, then the tensors they point to."""
    slots = set(copyreg._slotnames(t1.__class__))  # type: ignore[attr-defined]
    if slots != set(copyreg._slotnames(t2.__class__)):  # type: ignore[attr-defined]
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")
    for name in ("__class__", "__dict__"):
        tmp = getattr(t1, name)
        setattr(t1, name, getattr(t2, name))
        setattr(t2, name, tmp)
    for slot in slots:
        one, two = hasattr(t1, slot), hasattr(t2, slot)
        a, b = getattr(t1, slot, None), getattr(t2, slot, None)
        if one:
            delattr(t1, slot)
        if two:
            delattr(t2, slot)
        if two:
            setattr(t1, slot, b)
        if one:
            setattr(t2, slot, a)
    torch._C._swap_tensor_impl(t1, t2)


def _params_from_class(mode: Any) -> None:
    """A parameter made here is a ``FakeTensor`` marked as one (torch's path for a tensor
    subclass); code that rebuilds a parameter from its class, ``type(p)(data,
    requires_grad=...)`` (accelerate's ``set_module_tensor_to_device``), gets one again."""
    from torch._subclasses.fake_tensor import FakeTensor

    new = FakeTensor.__new__

    def __new__(cls: Any, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and isinstance(args[0], FakeTensor) and set(kwargs) <= {
                "requires_grad"}:
            return torch.nn.Parameter(args[0], kwargs.get("requires_grad", True))
        return new(cls, *args, **kwargs)

    FakeTensor.__new__ = staticmethod(__new__)  # type: ignore[method-assign]


def _release_graphs() -> None:
    """Detach in place every tensor that still holds an autograd graph (the ``loss`` of a step
    run earlier for real). Such a graph holds each trained parameter once more, which
    ``swap_tensors`` refuses with autograd off; on a GPU ``Module.to`` sets ``.data`` instead,
    which a held parameter allows, so the move must succeed here too.
    NB: child only; no graph is of use here, since autograd never runs in a rehearsal."""
    # NB: the sandbox froze the parent's objects (never collected in the child): listed here,
    # frozen again before anything is collected
    gc.unfreeze()
    objects = gc.get_objects()
    gc.freeze()
    for obj in objects:
        # NB: type(), not isinstance(): the latter asks some lazy modules' __class__, which warns
        if not issubclass(type(obj), torch.Tensor):
            continue
        # NB: any tensor the kernel ever made is here, exotic wrappers and a fake tensor whose
        # mode is gone among them: one that cannot say or drop its graph is left as it is; a
        # view cannot be detached in place
        with contextlib.suppress(Exception):
            if obj.grad_fn is not None:
                obj.detach_()
    del objects
    gc.collect()


# --- what a CPU build cannot simulate ----------------------------------------------------------

def _skip(trace: Trace, where: UserLine) -> None:
    """``backward()``, ``autograd.grad`` and ``torch.save`` are noted and skipped."""
    def backward(*args: Any, **kwargs: Any) -> None:
        _note(trace, where, "autograd does not run on a simulated GPU in a CPU build of torch; "
                            "each trained parameter got a zero gradient on its own device")
        _zero_grads()

    def grad(outputs: Any, inputs: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        _note(trace, where, "autograd does not run on a simulated GPU in a CPU build of torch; "
                            "each gradient was taken as zeros on its input's device")
        seq = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
        return tuple(torch.zeros_like(t) for t in seq)

    def save(*args: Any, **kwargs: Any) -> None:
        _note(trace, where, "nothing is written in a rehearsal")

    _no_smi(trace, where)
    torch.Tensor.backward = backward  # type: ignore[method-assign]
    torch.autograd.backward = backward
    torch.autograd.grad = grad  # type: ignore[assignment]
    torch.save = save


def _no_smi(trace: Trace, where: UserLine) -> None:
    """``nvidia-smi`` (accelerate asks it of a multi-GPU ``device_map``) is not found, as on a
    machine without it, instead of the sandbox's refusal of a process: code that can do
    without its answer goes on, and the user is told it was not asked."""
    popen = subprocess.Popen.__init__

    def init(self: Any, args: Any, *rest: Any, **kwargs: Any) -> None:
        first = args if isinstance(args, str | bytes | os.PathLike) else next(iter(args), "")
        program = os.path.basename(os.fsdecode(first).split(" ")[0]) if first else ""
        if program.startswith("nvidia-smi"):
            _note(trace, where, "nvidia-smi was not run (a simulated GPU has none): the code "
                                "was told it is not found")
            raise FileNotFoundError(2, "No such file or directory", program)
        popen(self, args, *rest, **kwargs)

    subprocess.Popen.__init__ = init  # type: ignore[method-assign]


def _note(trace: Trace, where: UserLine, why: str) -> None:
    found = where(sys._getframe(2))
    at, code = found if found is not None else ("outside the user's code", "")
    trace.skipped.setdefault(at, f"`{code}`: {why}" if code else why)


def _zero_grads() -> None:
    """A zero gradient for every parameter an optimizer trains, on the parameter's device and
    in its dtype: what a backward pass on a GPU leaves there."""
    for obj in gc.get_objects():
        if isinstance(obj, torch.optim.Optimizer):
            for p in trained_params(obj):  # NB: off its __dict__, never a property
                if isinstance(p, torch.Tensor) and p.requires_grad and p.grad is None:
                    p.grad = torch.zeros_like(p)


def _no_grad_ever() -> None:
    """Autograd stays off whatever the code asks (``enable_grad``, ``set_grad_enabled``):
    recording a graph on a fake cuda tensor aborts a CPU build of torch."""
    set_enabled = torch._C._set_grad_enabled
    torch._C._set_grad_enabled = lambda enabled: set_enabled(False)


def _count_steps(trace: Trace, steps: int) -> None:
    from torch.optim.optimizer import register_optimizer_step_post_hook

    def counted(optimizer: Any, args: Any, kwargs: Any) -> None:
        trace.steps += 1
        if 0 < steps <= trace.steps:
            raise StepsDone(f"--steps {steps}")

    register_optimizer_step_post_hook(counted)


# --- "cuda", indexing ---------------------------------------------------------------------------

class _Devices(TorchFunctionMode):
    """``"cuda"`` becomes the current simulated GPU; an op a CPU build cannot run on a fake cuda
    tensor (C++ indexing, an RNN kernel, ``nonzero``) runs on ``meta`` twins instead."""

    def __init__(self, trace: Trace) -> None:
        super().__init__()
        self.trace = trace

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if func is torch.device:  # NB: torch.device("cuda", 1) is cuda:1; "cuda" stays "cuda"
            return cuda(args[0]) if len(args) == 1 and type(args[0]) is int else func(
                *args, **kwargs)
        if type(kwargs.get("device")) is int:  # NB: device=1, as a machine with GPUs reads it
            kwargs = {**kwargs, "device": cuda(kwargs["device"])}
        if func is torch.Tensor.to and len(args) > 1 and type(args[1]) is int:  # .to(1)
            args = (args[0], cuda(args[1]), *args[2:])
        if func is torch.Tensor.cuda:  # NB: .cuda() and .cuda(None): the current GPU
            device = args[1] if len(args) > 1 else kwargs.get("device")
            args, kwargs = args[:1], {**kwargs, "device": cuda(device)}
        args, kwargs = tree_map(_device, (args, kwargs))
        if func is torch.Tensor.pin_memory:
            return args[0]  # NB: pinned or not, the data stays on the cpu
        out = _twins.run(func, args, kwargs)
        if not self.trace.on_device and _simulated(out):
            self.trace.on_device = True
        return out


def _device(x: Any) -> Any:
    if isinstance(x, str) and (x == "cuda" or x.startswith("cuda:")):
        x = torch.device(x)
    if isinstance(x, torch.device) and x.type == "cuda":
        return torch.device("cuda", index(x))
    return x


def _simulated(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and x.device.type == "cuda"
