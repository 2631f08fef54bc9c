"""In-place moves that need a new tensor body: the swap partner, and what a swap must carry.

Between devices whose tensors torch cannot retarget with ``.data =`` (cpu <-> meta, fake
tensors) a parameter keeps its identity by swapping bodies with a *partner* built in phase 1.
NB: what lives on the old body rather than on the Python object is carried over: backward hooks
and post-accumulate-grad hooks; an RNN's weak references to its flat weights are released for
the swap and made again afterwards.
"""

from __future__ import annotations

import contextlib
import copyreg
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from ..inspect import _tree
from ..inspect._trust import type_name
from ._keys import is_fake


class Blocker(NamedTuple):
    """Why a tensor cannot be swapped; ``held``: views or a graph hold it (maybe only the last
    error's traceback does)."""

    reason: str
    held: bool


def needs_swap(torch: Any, t: Any, new: Any) -> bool:
    """Whether ``new`` can only replace ``t``'s body by a swap (not ``t.data = new``)."""
    return is_fake(new) or not torch._has_compatible_shallow_copy_type(t, new)


def predicts_swap(torch: Any, t: Any, device: Any) -> bool:
    """:func:`needs_swap` before anything is allocated (a dry run). NB: meta tensors share no
    body type with any real device; dense cpu/cuda/xpu/mps bodies are interchangeable."""
    fake = torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE)
    if is_fake(t) or fake is not None:
        return device is not None
    return device is not None and (t.device.type == "meta") != (device.type == "meta")


def rnn_refs(rnns: list[Any]) -> set[int]:
    """Ids of the weak references RNN modules keep to their flat weights."""
    out: set[int] = set()
    for m in rnns:
        refs = (_tree.instance_dict(m) or {}).get("_flat_weight_refs")
        if type(refs) is list:
            out.update(id(r) for r in refs if r is not None)
    return out


def blocker(torch: Any, t: Any, device: Any, known_refs: set[int], graphs: list[str],
            ) -> Blocker | None:
    """Why ``t`` cannot be swapped for a copy on ``device``, or None."""
    tp = type(t)
    if tp is not torch.Tensor and tp is not torch.nn.Parameter and not is_fake(t):
        return Blocker(f"a {type_name(tp)} cannot be moved in place to {device}", False)
    if any(id(r) not in known_refs for r in weakref.getweakrefs(t)):
        return Blocker(f"cannot be moved in place to {device}: something holds a weak "
                       f"reference to it (torch.compile, a fake-tensor converter?)", False)
    if not t.requires_grad:
        return None  # NB: no gradient to accumulate: old views and graphs keep the old body
    uses = t._use_count()
    if uses > 2 or (uses == 2 and not t.is_leaf):
        hint = "delete views of it, or finish backward() first"
        if graphs:
            few = ", ".join(graphs[:3])
            hint = f"{few} {'holds a graph' if len(graphs) == 1 else 'hold graphs'}: run " \
                   f"backward() or del {graphs[0]}; or delete views of it"
        return Blocker(f"cannot be moved in place to {device}: a view or an autograd graph "
                       f"still holds it ({hint})", True)
    return None


def partner(torch: Any, t: Any, new: Any) -> Any:
    """The tensor whose body ``t`` will take: a Parameter if ``t`` is one, with ``t``'s
    attributes and hooks."""
    d = _tree.instance_dict(t)
    # NB: a parameter of a tensor subclass (FakeTensor) is that subclass flagged ``_is_param``
    is_param = type(t) is torch.nn.Parameter or bool(d and d.get("_is_param"))
    out = torch.nn.Parameter(new, requires_grad=t.requires_grad) if is_param else new
    for k, v in (d or {}).items():  # NB: swap_tensors swaps __dict__ too: keep user attributes
        out.__dict__.setdefault(k, v)
    carry_hooks(torch, t, out)
    return out


def carry_hooks(torch: Any, t: Any, new: Any) -> None:
    """Register ``t``'s backward and post-accumulate-grad hooks on ``new``. NB: the same dicts,
    so a handle from ``register_hook`` still removes its hook."""
    if not (t.requires_grad and new.requires_grad):
        return
    base = torch._C.TensorBase
    for name in ("_backward_hooks", "_post_accumulate_grad_hooks"):
        hooks = getattr(base, name).__get__(t)
        if hooks:
            getattr(base, name).__set__(new, hooks)


def swapper(torch: Any, t: Any, other: Any) -> Callable[[], None]:
    """A call that exchanges the bodies of ``t`` and ``other``; calling it again undoes it.

    NB: torch's ``swap_tensors`` asks for the gradient edge of a leaf that something else still
    uses, which fails for a frozen weight (``requires_grad=False``) that a graph saved; with no
    gradient to accumulate there is nothing to protect, so such a tensor is swapped directly
    (the graph keeps the old body). The way is chosen once, so the undo takes the same one."""
    if t.requires_grad or t._use_count() == 1:
        return partial(torch.utils.swap_tensors, t, other)
    return partial(_swap_direct, torch, t, other)


def _swap_direct(torch: Any, t: Any, other: Any) -> None:
    if weakref.getweakrefs(t) or weakref.getweakrefs(other):
        raise RuntimeError("cannot swap a tensor that has weak references")
    slots = set(copyreg._slotnames(type(t)))  # type: ignore[attr-defined]
    if slots != set(copyreg._slotnames(type(other))):  # type: ignore[attr-defined]
        raise RuntimeError("cannot swap tensors with different slots")
    if type(t) is not type(other):
        t.__class__, other.__class__ = type(other), type(t)
    t.__dict__, other.__dict__ = other.__dict__, t.__dict__
    for s in slots:
        a, b = getattr(t, s, _tree._MISSING), getattr(other, s, _tree._MISSING)
        for obj, value in ((t, b), (other, a)):
            if value is _tree._MISSING:
                with contextlib.suppress(AttributeError):
                    delattr(obj, s)
            else:
                setattr(obj, s, value)
    torch._C._swap_tensor_impl(t, other)


def release_rnn_refs(rnns: list[Any]) -> None:
    """Drop RNN modules' weak references to their weights (they would block the swap). NB: the
    list itself stays, emptied, and is refilled by :func:`relink_rnn_refs`."""
    for m in rnns:
        refs = (_tree.instance_dict(m) or {}).get("_flat_weight_refs")
        if type(refs) is list:
            list.clear(refs)


def relink_rnn_refs(torch: Any, rnns: list[Any], flatten: bool = False) -> None:
    """Make RNN modules' weak references again, as ``RNNBase._apply`` does after ``.to()``;
    with ``flatten``, pack the weights for cuDNN again (a no-op off CUDA)."""
    for m in rnns:
        d = _tree.instance_dict(m) or {}
        weights, refs = d.get("_flat_weights"), d.get("_flat_weight_refs")
        if type(weights) is not list or type(refs) is not list:
            continue
        refs[:] = [weakref.ref(w) if w is not None else None for w in weights]
        own = _tree._type_dict_lookup(type(m), "__getattribute__")
        if flatten and own is object.__dict__["__getattribute__"]:
            with contextlib.suppress(Exception):  # NB: only speed depends on it
                torch.nn.RNNBase.flatten_parameters(m)
