"""A dtype mix raised while a custom autograd Function's ``backward`` re-runs its block (gradient
checkpointing, reversible layers): the forward ran under autocast, the recompute runs without it,
so the saved low-precision inputs meet float32 weights.

The block's code is not what to change: the Function is. Its ``backward`` should run in the
autocast state its ``forward`` ran in: ``torch.amp.custom_fwd`` records that state and
``torch.amp.custom_bwd`` re-enters it. latent-diffusion's ``CheckpointFunction`` and memcnn's
``InvertibleCheckpointFunction`` shipped ``custom_fwd(cast_inputs=torch.float32)`` instead, which
casts every iterable argument too (a ``Sequential`` handed in as the block becomes a generator),
so it is not what is printed. The forward ran the same block without failing, so an autocast (or
another dtype context) was on there: that is why the mix is the Function's, not the block's.
torch's own functions (``torch.utils.checkpoint``) restore autocast themselves and are never
edited.
NB: reads frames, class ``__dict__``s and source lines only; no user code runs.
"""

from __future__ import annotations

import types
from typing import Any, NamedTuple

from ..running._frames import Frame, cell_label, frame_locals
from ._blame import Operand
from ._edits import Edit
from ._source import Code, function_code, unwrapped

LOW = frozenset({"float16", "bfloat16"})


class Recompute(NamedTuple):
    edits: tuple[Edit, ...]
    note: str


def recompute(kind: str, operands: list[Operand], frames: list[Frame]) -> Recompute | None:
    """The edits that make the Function whose backward re-ran the failing code keep its
    forward's precision, or None where the failure is not such a recompute."""
    dtypes = {o.dtype for o in operands}
    if kind != "dtype" or not dtypes & LOW or "float32" not in dtypes:
        return None
    # NB: frames[0] is the innermost; the backward must have re-run a module's code (the
    # block), not failed on a line of its own or of a helper
    for i, fr in enumerate(frames[1:], start=1):
        cls = _function_class(fr)
        if cls is None:
            continue
        if not any(_in_module(f) for f in frames[:i]):
            return None
        return _edits(cls, _device_type(operands), sorted(dtypes & LOW)[0])
    return None


def _in_module(fr: Frame) -> bool:
    """The frame runs a method of an ``nn.Module`` (its ``self`` is one)."""
    import torch

    co = fr.frame.f_code
    if not co.co_argcount or co.co_varnames[0] != "self":
        return False
    return issubclass(type(frame_locals(fr.frame).get("self")), torch.nn.Module)


def _function_class(fr: Frame) -> type | None:
    """The ``torch.autograd.Function`` whose ``backward`` this frame runs (its ``ctx`` knows
    it: ``type(ctx)._forward_cls``), where the class is not torch's own."""
    import torch

    co = fr.frame.f_code
    if co.co_name != "backward" or not co.co_argcount:
        return None
    ctx = frame_locals(fr.frame).get(co.co_varnames[0])
    d = type.__dict__["__dict__"].__get__(type(ctx))
    cls = d.get("_forward_cls")
    if not isinstance(cls, type) or not issubclass(cls, torch.autograd.Function):
        return None
    return None if _torch_file(torch, co.co_filename) else cls


def function_class(fr: Frame) -> type | None:
    """The user's (or a library's) ``torch.autograd.Function`` whose ``backward`` this frame
    runs (torch's engine called it: no object of the user's ran it); None for any other
    frame. NB: its ``forward`` is run through ``apply`` by the module the user holds, which is
    named as for any code that module runs (apex's ``FusedLayerNorm``, mmcv's ``RoIAlign``)."""
    return _function_class(fr)


def _torch_file(torch: Any, filename: str) -> bool:
    """``filename`` is one of the installed torch package's own files."""
    import os

    return filename.startswith(os.path.dirname(torch.__file__) + os.sep)


def _device_type(operands: list[Operand]) -> str:
    devices = [o.device.partition(":")[0] for o in operands if o.device]
    return next((d for d in devices if d != "cpu"), devices[0] if devices else "cuda")


def _method(cls: type, name: str) -> Any:
    raw = type.__dict__["__dict__"].__get__(cls).get(name)
    fn = raw.__func__ if type(raw) in (staticmethod, classmethod) else raw
    return unwrapped(fn) if type(fn) is types.FunctionType else None


def _edits(cls: type, device: str, low: str) -> Recompute | None:
    import torch

    forward, backward = _method(cls, "forward"), _method(cls, "backward")
    if forward is None or backward is None:
        return None
    # NB: spelled with the name the Function's own module binds torch to
    alias = next((k for k, v in list(dict.items(forward.__globals__)) if v is torch), "")
    if not alias:
        return None
    edits = []
    # NB: no ``cast_inputs``: it casts every iterable argument (a ``Sequential`` handed in as
    # ``run_function`` becomes a generator); the backward re-enters the forward's autocast
    for fn, deco in ((forward, f"custom_fwd(device_type={device!r})"),
                     (backward, f"custom_bwd(device_type={device!r})")):
        code = function_code(fn)
        if code is None or code.func is None:
            return None
        if _decorated(code, deco.split("(")[0]):
            return None  # NB: already decorated: something else is wrong
        edits.append(_decorate(code, f"@{alias}.amp.{deco}"))
    name = type.__dict__["__qualname__"].__get__(cls)
    if _reaches(forward.__globals__, name, cls):
        # NB: the user's handle on the code is the class itself (``Ckpt.Function``), not the
        # tensor whose ``backward`` happened to run it
        edits = [e._replace(owner=name) for e in edits]
    return Recompute(tuple(edits),
                     f"{name}.backward re-runs the forward without the autocast it ran under: "
                     f"the {low} inputs it saved meet float32 weights")


def _reaches(globs: dict[str, Any], qualname: str, cls: type) -> bool:
    """``qualname`` leads to ``cls`` from the module's globals, through classes' own dicts."""
    head, *rest = qualname.split(".")
    obj = dict.get(globs, head)
    for part in rest:
        obj = type.__dict__["__dict__"].__get__(obj).get(part) if isinstance(obj, type) else None
    return obj is cls


def _decorated(code: Code, name: str) -> bool:
    import ast

    assert code.func is not None
    return any(getattr(n, "id", None) == name or getattr(n, "attr", None) == name
               for d in code.func.decorator_list for n in ast.walk(d))


def _decorate(code: Code, decorator: str) -> Edit:
    assert code.func is not None
    lineno = code.func.lineno  # NB: the ``def`` line, below any decorator
    line = code.line(lineno)
    pad = line[:len(line) - len(line.lstrip())]
    where = f"{cell_label(code.src.filename)} line {lineno} (in {code.qualname})"
    return Edit(where, (line,), (pad + decorator, line), code.src.filename, code.qualname)
