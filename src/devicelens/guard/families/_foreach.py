"""A foreach or fused optimizer's step that refuses its own groups: "Tensors of the same index
must be on the same device and the same dtype except `step` tensors ...".

Such an optimizer hands torch each parameter with its grad and its state, one list of each, and
torch checks them index by index against the parameter (the first list). The message names no
tensor; the lists are in the frame of ``_group_tensors_by_device_and_dtype``. Each index is
checked here as torch checks it, and the tensors it refuses are the operands to blame: an
optimizer's state on another GPU (a checkpoint every rank loaded onto rank 0's device) or in a
dtype torch refuses, an integer ``step`` the user's code made, a grad of another dtype. (A
float32 state on the cpu passes this check; the foreach op after it raises the usual message.)
NB: reads headers only, as the rest of the diagnosis does.
"""

from __future__ import annotations

from typing import Any, Literal

from ..diagnosis._blame import is_tensor, meta
from ..running._frames import Frame, frame_locals

#: at most this many indices are checked (a model's every parameter, usually far fewer)
MAX_INDICES = 100_000
#: the dtypes torch lets a tensor take beside a parameter on the same device (a ``step``, a
#: state kept in float32 or bfloat16 for mixed precision), and on the cpu beside any device
_SAME_DEVICE = ("float32", "float64", "bfloat16")
_ON_CPU = ("float32", "float64")


Kind = Literal["device", "dtype"]


def refused(frames: list[Frame]) -> tuple[Kind, str, list[tuple[str, Any]]] | None:
    """The kind of the first refusal ("device" or "dtype"), the device or dtype its parameter
    has, and the operands: that parameter, then every tensor refused at its index. None where
    no frame holds the lists, or torch's check would take them all."""
    lists = _lists(frames)
    if lists is None:
        return None
    first = lists[0]
    for i in range(min(len(first), MAX_INDICES)):
        p = first[i]
        head = meta(p) if is_tensor(p) else None
        if head is None:
            continue
        bad = []
        for other in lists[1:]:
            t = other[i] if i < len(other) else None
            got = meta(t) if is_tensor(t) else None
            if got is not None and not _taken(head, got):
                bad.append(t)
        if bad:
            device = any(meta(t)[0] != head[0] for t in bad)  # type: ignore[index]
            kind: Kind = "device" if device else "dtype"
            return kind, head[0] if device else head[1], [("the parameter", p)] + [
                ("", t) for t in bad]
    return None


def _taken(param: tuple[str, str, tuple[int, ...]], t: tuple[str, str, tuple[int, ...]]) -> bool:
    """Whether torch's check takes a tensor of header ``t`` beside parameter ``param``."""
    if t[0] == param[0]:
        return t[1] == param[1] or t[1] in _SAME_DEVICE
    return t[0] == "cpu" and t[1] in _ON_CPU


def _lists(frames: list[Frame]) -> list[list[Any]] | None:
    """The grouping's lists of tensors, from the innermost frame that holds them."""
    for fr in frames:
        if fr.frame.f_code.co_name != "_group_tensors_by_device_and_dtype":
            continue
        lists = frame_locals(fr.frame).get("tensorlistlist")
        if type(lists) in (list, tuple) and lists and all(type(x) in (list, tuple)
                                                          for x in lists):
            return [list(x) for x in lists]
    return None
