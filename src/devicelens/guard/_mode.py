"""The ``TorchFunctionMode`` behind ``%%cuda_safe``: catch a device/dtype mix before the op runs.

The happy path is one tight scan of the op's tensor arguments (a few hundred ns on top of the
mode's own cost); names, frames and snapshots are only looked at once a mismatch is certain.
With ``autofix`` the stray argument is moved to the expected device instead, and every move is
counted for the report printed after the cell. Module parameters are never moved silently.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from types import FrameType
from typing import Any, cast

import torch
from torch.overrides import TorchFunctionMode

from . import _blame
from ._blame import CellFiles
from ._mismatch import Kind, MismatchReport, fixes_for, is_float

Tensor = torch.Tensor
_SEQ = (list, tuple)

# NB: ops that legitimately take tensors on several devices (moves, views by shape, indexing
# with CPU indices, autograd over model-parallel outputs, attribute setters).
EXEMPT = frozenset({
    "to", "copy_", "cuda", "cpu", "type", "type_as", "__set__", "__get__", "__setitem__",
    "__getitem__", "index_put", "index_put_", "_has_compatible_shallow_copy_type", "set_",
    "expand_as", "view_as", "reshape_as", "is_same_size", "__deepcopy__", "__reduce_ex__",
    "new_tensor", "_to_copy", "__repr__", "__format__", "grad", "backward", "is_set_to",
    "_make_subclass", "_foreach_copy_",
})
_MUTATING = frozenset({"batch_norm", "instance_norm"})
# NB: ops whose lengths/sizes arguments live on the CPU by contract (packed sequences, CTC).
_CPU_INDEX_OK = frozenset({"lstm", "gru", "rnn_tanh", "rnn_relu", "_pack_padded_sequence",
                           "_pad_packed_sequence", "ctc_loss", "_ctc_loss", "_cudnn_ctc_loss",
                           "_use_cudnn_ctc", "pack_padded_sequence", "pad_packed_sequence"})


class DeviceMismatchError(RuntimeError):
    """Tensors on different devices (or, with ``--dtype``, floating dtypes) met in one op.

    A ``RuntimeError``, so existing ``except RuntimeError`` code keeps working. ``report`` holds
    the op, the culprits by name, the module, the cell line and the fix.
    """

    def __init__(self, report: MismatchReport, note: str = "") -> None:
        self.report = report
        text = report.text() + (f"\n  note: {note}" if note else "")
        super().__init__(text)

    @property
    def culprits(self) -> tuple[str, ...]:
        return self.report.names

    @property
    def fix(self) -> str:
        return "\n".join(self.report.fixes)


@dataclass(frozen=True)
class AutoMove:
    """One op argument that ``--autofix`` moved, and how often."""

    name: str
    source: str
    target: str
    op: str
    line: str
    fix: str
    count: int


@dataclass(frozen=True)
class AutofixReport:
    moves: tuple[AutoMove, ...]

    def text(self) -> str:
        if not self.moves:
            return ""
        out = [f"%%cuda_safe --autofix moved {len(self.moves)} op argument(s) while the cell ran:"]
        for m in self.moves:
            out.append(f"  {m.name}: {m.source} -> {m.target}, {m.count}x ({m.op}, {m.line})")
        out.append("To make it permanent:")
        out += ["  " + ln for fix in dict.fromkeys(m.fix for m in self.moves)
                for ln in fix.splitlines()]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()


def _is_compiling() -> bool:
    return bool(torch.compiler.is_compiling())


class DeviceGuard(TorchFunctionMode):
    """Checks the devices of every torch op's tensor arguments before the op runs."""

    check_dtype = False

    def __init__(self, namespace: dict[str, Any] | None = None, *, autofix: bool = False,
                 device: str | None = None, is_cell: CellFiles | None = None,
                 filename: str = "") -> None:
        super().__init__()
        self.ns = namespace if namespace is not None else sys._getframe(1).f_globals
        self.autofix = autofix
        self.device = str(torch.device(device)) if device else None
        self.filename = filename
        self.is_cell = is_cell or _blame.default_cell_files([filename] if filename else [])
        self._sites: dict[Any, list[Any]] = {}

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        __tracebackhide__ = True
        dev = None
        for a in args:
            if isinstance(a, Tensor):
                d = a.device
                if dev is None:
                    dev = d
                elif d != dev:
                    return self._slow(func, args, kwargs)
            elif type(a) in _SEQ and a and isinstance(a[0], Tensor):
                for b in a:
                    if isinstance(b, Tensor):
                        d = b.device
                        if dev is None:
                            dev = d
                        elif d != dev:
                            return self._slow(func, args, kwargs)
        if kwargs:
            for a in kwargs.values():
                if isinstance(a, Tensor):
                    d = a.device
                    if dev is None:
                        dev = d
                    elif d != dev:
                        return self._slow(func, args, kwargs)
            return func(*args, **kwargs)
        return func(*args)

    # -- the failure path: everything below runs only once devices (or dtypes) differ
    def _slow(self, func: Any, args: Any, kwargs: Any) -> Any:
        __tracebackhide__ = True
        kwargs = kwargs or {}
        if _is_compiling() or _exempt(func, args, kwargs):
            return func(*args, **kwargs)
        slots = tensor_slots(args, kwargs)
        split = _device_split(func, slots)
        if split:
            if self.autofix:
                return self._autofix(func, args, kwargs, split)
            raise DeviceMismatchError(self.report("device", func, split, sys._getframe()))
        if self.check_dtype and _dtype_split(slots):
            raise DeviceMismatchError(self.report("dtype", func, slots, sys._getframe()))
        return func(*args, **kwargs)

    def report(self, kind: Kind, func: Any, slots: list[Slot],
               start: FrameType | None) -> MismatchReport:
        """Name the culprits of a mismatch seen in ``func``'s arguments ``slots``; the stack is
        read from frame ``start`` outwards."""
        frames = _blame.stack_frames(start)
        namer = _blame.Namer(self.ns, frames, self.is_cell)
        ops = [_blame.describe_tensor(s.tensor, s.where, namer.tensor(s.tensor)) for s in slots]
        stack = _blame.module_stack(frames, torch.nn.Module)
        if kind == "device":
            expected = _blame.expected_device(ops, stack, self.device,
                                              _blame.namespace_param_device(namer))
            culprits = [o for o in ops if o.device != expected and not o.scalar_cpu]
        else:
            expected = _blame.expected_dtype(ops, stack)
            culprits = [o for o in ops if is_float(o.dtype) and o.shape != ()
                        and o.dtype != expected]
        return MismatchReport(
            kind, op_name(func), expected, tuple(ops), tuple(culprits),
            namer.module_label(stack[0]) if stack else "",
            tuple(_blame.cell_lines(frames, self.is_cell, self.filename)),
            fixes_for(culprits, kind, expected, ops, _lint_hints(stack)),
        )

    # -- autofix
    def _autofix(self, func: Any, args: Any, kwargs: Any, slots: list[Slot]) -> Any:
        __tracebackhide__ = True
        caller = _caller(sys._getframe(3))
        key = (func, caller.f_code, caller.f_lineno, tuple(s.where for s in slots))
        site = self._sites.get(key)
        if site is None:
            rep = self.report("device", func, slots, sys._getframe())
            refusal = _refuse(func, slots, rep)
            if refusal:
                raise DeviceMismatchError(rep, refusal)
            site = self._sites[key] = [rep, 0]
        rep = site[0]
        site[1] += 1
        new_args, new_kwargs = list(args), dict(kwargs)
        for s in slots:
            if s.tensor.device != torch.device(rep.expected) and not _scalar_cpu(s.tensor):
                s.put(new_args, new_kwargs, s.tensor.to(rep.expected))
        return func(*new_args, **new_kwargs)

    def autofix_report(self) -> AutofixReport:
        moves = []
        for rep, count in self._sites.values():
            line = rep.lines[0] if rep.lines else "outside the cell"
            for c, fix in zip(rep.culprits, _pad(rep.fixes, len(rep.culprits)), strict=True):
                moves.append(AutoMove(c.named.name, c.device, rep.expected, rep.op,
                                      line.split(":", 1)[0], fix, count))
        return AutofixReport(tuple(moves))


class DtypeGuard(DeviceGuard):
    """``--dtype``: also refuses floating tensors of different dtypes in one op."""

    check_dtype = True

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        __tracebackhide__ = True
        dev = fdt = None
        values = (*args, *kwargs.values()) if kwargs else args
        for a in values:
            if isinstance(a, Tensor):
                d, t = a.device, a.dtype
                if dev is None:
                    dev = d
                elif d != dev:
                    return self._slow(func, args, kwargs)
                if t.is_floating_point:
                    if fdt is None:
                        fdt = t
                    elif t is not fdt:
                        return self._slow(func, args, kwargs)
            elif type(a) in _SEQ and a and isinstance(a[0], Tensor):
                return self._slow(func, args, kwargs)
        return func(*args, **(kwargs or {}))


def make_guard(namespace: dict[str, Any] | None = None, *, dtype: bool = False,
               **options: Any) -> DeviceGuard:
    """The guard ``%%cuda_safe`` runs under; ``namespace`` defaults to the caller's globals."""
    ns = namespace if namespace is not None else sys._getframe(1).f_globals
    return (DtypeGuard if dtype else DeviceGuard)(ns, **options)


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
    return out


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
    if len({str(s.tensor.device) for s in slots if not _scalar_cpu(s.tensor)}) > 1:
        return slots
    return []


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


def _caller(f: FrameType) -> FrameType:
    while f.f_back is not None and f.f_code.co_filename.endswith("overrides.py"):
        f = f.f_back
    return f


def _pad(items: tuple[str, ...], n: int) -> list[str]:
    return list(items[:n]) + [items[-1] if items else ""] * max(0, n - len(items))


def _lint_hints(stack: list[Any]) -> dict[str, str]:
    """Fixes the forward lint proposes for tensors created inside the running modules."""
    from .preflight import lint_forward

    out: dict[str, str] = {}
    for m in stack:
        for issue in lint_forward(cast(Any, type(m))):
            if issue.name:
                out.setdefault(f"`{issue.name}` in {issue.where}", issue.fix)
    return out


# --- running a cell -------------------------------------------------------------------------

def run_cell(source: str, namespace: dict[str, Any], guard: DeviceGuard, *, filename: str,
             line_offset: int = 0, flags: int = 0) -> Any:
    """Execute ``source`` in ``namespace`` under ``guard``; return the last expression's value.

    ``line_offset`` shifts line numbers so they match the cell as the user sees it.
    """
    __tracebackhide__ = True
    tree = ast.parse(source, filename)
    ast.increment_lineno(tree, line_offset)
    last = None
    tail = tree.body[-1] if tree.body else None
    if isinstance(tail, ast.Expr):
        tree.body.pop()
        last = ast.Expression(tail.value)
    code = compile(tree, filename, "exec", flags=flags, dont_inherit=True)
    with guard:
        exec(code, namespace)
        if last is not None:
            return eval(compile(last, filename, "eval", flags=flags, dont_inherit=True),
                        namespace)
    return None
