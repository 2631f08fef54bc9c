"""Where tensors sit in an op's arguments, which of them the op writes into, and which ops
may mix devices: what the guard in :mod:`._mode` reads once a mismatch is suspected.
"""

from __future__ import annotations

from typing import Any

import torch

from ..diagnosis._mismatch import MismatchReport

Tensor = torch.Tensor
_SEQ = (list, tuple)

# NB: ops that legitimately take tensors on several devices (moves, views by shape, indexing
# with CPU indices, autograd over model-parallel outputs, attribute setters).
EXEMPT = frozenset({
    "to", "copy_", "cuda", "cpu", "type", "type_as", "__set__", "__get__", "__setitem__",
    "__getitem__", "index_put", "index_put_", "_has_compatible_shallow_copy_type", "set_",
    "expand_as", "view_as", "reshape_as", "is_same_size", "__deepcopy__", "__reduce_ex__",
    "new_tensor", "_to_copy", "__repr__", "__format__", "grad", "backward", "is_set_to",
    "_make_subclass", "_foreach_copy_", "fill_",  # NB: a 0-dim value fills from any device
})
_MUTATING = frozenset({"batch_norm", "instance_norm"})
_INPLACE_DUNDERS = frozenset({
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__",
    "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__imatmul__",
})
# NB: where F.batch_norm / torch.batch_norm (and the instance_norm twins) take running stats
_RUNNING_STATS = {"torch.nn.functional": (1, 2), "torch": (3, 4)}
# NB: ops whose lengths/sizes arguments live on the CPU by contract (packed sequences, CTC).
_CPU_INDEX_OK = frozenset({"lstm", "gru", "rnn_tanh", "rnn_relu", "_pack_padded_sequence",
                           "_pad_packed_sequence", "ctc_loss", "_ctc_loss", "_cudnn_ctc_loss",
                           "_use_cudnn_ctc", "pack_padded_sequence", "pad_packed_sequence"})


# --- argument slots -------------------------------------------------------------------------

class Slot:
    """Where a tensor sits in an op's arguments, so autofix can put a moved copy back."""

    __slots__ = ("index", "key", "sub", "tensor", "where")

    def __init__(self, where: str, tensor: Any, index: int = -1, key: str = "",
                 sub: int = -1) -> None:
        self.where, self.tensor, self.index, self.key, self.sub = where, tensor, index, key, sub

    def put(self, args: list[Any], kwargs: dict[str, Any], value: Any) -> None:
        holder: Any = args if self.index >= 0 else kwargs
        at: Any = self.index if self.index >= 0 else self.key
        if self.sub >= 0:
            seq = list(holder[at])
            seq[self.sub] = value
            holder[at] = type(holder[at])(seq) if type(holder[at]) is tuple else seq
        else:
            holder[at] = value


def tensor_slots(args: Any, kwargs: dict[str, Any]) -> list[Slot]:
    out = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            out.append(Slot(f"argument {i + 1}", a, index=i))
        elif type(a) in _SEQ:
            out += [Slot(f"argument {i + 1}[{j}]", b, index=i, sub=j)
                    for j, b in enumerate(a) if isinstance(b, Tensor)]
    for k, a in kwargs.items():
        if isinstance(a, Tensor):
            out.append(Slot(f"{k}=", a, key=k))
        elif type(a) in _SEQ:
            out += [Slot(f"{k}=[{j}]", b, key=k, sub=j)
                    for j, b in enumerate(a) if isinstance(b, Tensor)]
    return out


def _inplace(func: Any) -> bool:
    name = getattr(func, "__name__", "") or ""
    return (name.endswith("_") and not name.endswith("__")) or name in _INPLACE_DUNDERS


def _written(func: Any, args: Any, kwargs: dict[str, Any], slots: list[Slot]) -> list[Slot]:
    """The slots of tensors ``func`` writes into: ``self`` of an in-place op (``add_``,
    ``+=``, ``inplace=True``), ``out=``, and batch/instance norm's running statistics."""
    name = getattr(func, "__name__", "") or ""
    inplace = _inplace(func) or kwargs.get("inplace") is True
    stats: tuple[int, ...] = ()
    if name in _MUTATING:
        stats = _RUNNING_STATS.get(getattr(func, "__module__", "") or "", ())
    return [s for s in slots
            if (inplace and s.index == 0) or s.key in ("out", "running_mean", "running_var")
            or (s.index in stats and s.sub < 0)]


def _name_of(rep: MismatchReport, s: Slot) -> str:
    for o in rep.operands:
        if o.where == s.where:
            return o.named.name
    return s.where


def _scalar_cpu(t: Any) -> bool:
    return bool(t.dim() == 0 and t.device.type == "cpu")


def _exempt(func: Any, args: Any, kwargs: dict[str, Any]) -> bool:
    if getattr(func, "__name__", "") in EXEMPT or "device" in kwargs:
        return True
    return any(type(a) is torch.device for a in args)


def _device_split(func: Any, slots: list[Slot]) -> list[Slot]:
    """The slots of a real device mix ([] when PyTorch allows it). NB: foreach ops pair up
    tensors by index; different indices may live on different devices."""
    name = getattr(func, "__name__", "")
    if name in _CPU_INDEX_OK:
        slots = [s for s in slots if not (s.tensor.device.type == "cpu"
                                          and not s.tensor.is_floating_point())]
    if name.startswith("_foreach"):
        rows: dict[int, list[Slot]] = {}
        for s in slots:
            if s.sub >= 0:
                rows.setdefault(s.sub, []).append(s)
        for row in rows.values():
            if len({str(s.tensor.device) for s in row if not _scalar_cpu(s.tensor)}) > 1:
                return row
        return []
    # NB: a 0-dim cpu tensor mixes with any device as an input, never as the tensor an op
    # writes into (``total = torch.tensor(0.)``, then ``total += loss_on_gpu``)
    into = _inplace(func)
    if len({str(s.tensor.device) for s in slots if not _scalar_cpu(s.tensor) or (
            into and s.index == 0 and s.sub < 0) or s.key == "out"}) > 1:
        return slots
    return []


def _index_slots(func: Any, slots: list[Slot]) -> list[Slot]:
    """The slots holding indices (``scatter_``'s ``index``): integers, not values to match."""
    from ..diagnosis._roles import INDEX_METHODS

    pos = INDEX_METHODS.get(getattr(func, "__name__", ""))
    return [s for s in slots if pos is not None and s.index == pos and s.sub < 0] + [
        s for s in slots if s.key in ("index", "indices")]


def _dtype_split(slots: list[Slot]) -> bool:
    dts = {s.tensor.dtype for s in slots if s.tensor.dtype.is_floating_point and s.tensor.dim()}
    return len(dts) > 1


def _refuse(func: Any, slots: list[Slot], rep: MismatchReport) -> str:
    """Why autofix must not move these culprits (parameters, mutated buffers), or ''."""
    name = op_name(func)
    mutating = name.endswith("_") or name in _MUTATING
    for c in rep.culprits:
        if c.named.role == "parameter" or (c.named.role == "buffer" and mutating):
            return (f"--autofix does not move module {c.named.role}s silently: "
                    f"{c.named.name} stays on {c.device}; apply the fix above")
    for s in slots:
        if isinstance(s.tensor, torch.nn.Parameter) and str(s.tensor.device) != rep.expected:
            return "--autofix does not move module parameters silently; apply the fix above"
    return ""


def op_name(func: Any) -> str:
    name = getattr(func, "__name__", "") or type(func).__name__
    qual = getattr(func, "__qualname__", "") or ""
    if qual.startswith(("TensorBase.", "Tensor.")):
        return f"Tensor.{name}"
    return str(name)
