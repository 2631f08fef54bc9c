"""The ``TorchFunctionMode`` behind ``%%cuda_safe``: catch a device/dtype mix before the op runs.

The happy path is one tight scan of the op's tensor arguments (a few hundred ns on top of the
mode's own cost); names, frames and snapshots are only looked at once a mismatch is certain.
With ``autofix`` the stray argument is moved to the expected device instead, and every move is
counted for the report printed after the cell. Module parameters are never moved silently.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from ..diagnosis._mismatch import Kind, MismatchReport
from . import _frames
from ._frames import CellFiles
from ._slots import (
    Slot,
    _device_split,
    _dtype_split,
    _exempt,
    _index_slots,
    _name_of,
    _refuse,
    _scalar_cpu,
    _written,
    op_name,
    tensor_slots,
)

Tensor = torch.Tensor
_SEQ = (list, tuple)
_PACK = torch._C._VariableFunctions._pack_padded_sequence


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
        n = len(self.moves)
        out = [f"%%cuda_safe --autofix moved {n} op argument{'s' * (n != 1)} while the cell ran:"]
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
        self.is_cell = is_cell or _frames.default_cell_files([filename] if filename else [])
        self._sites: dict[Any, list[Any]] = {}

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        __tracebackhide__ = True
        if func is _PACK:
            self._packed(func, args, kwargs)
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

    def _packed(self, func: Any, args: Any, kwargs: Any) -> None:
        """Packed sequences take their lengths on the cpu whatever device the data is on: a GPU
        ``lengths`` fails in PyTorch's kernel, so it is caught here, named like any mismatch."""
        __tracebackhide__ = True
        from ..diagnosis._messages import RULES

        kwargs = kwargs or {}
        lengths = args[1] if len(args) > 1 else kwargs.get("lengths")
        if not isinstance(lengths, Tensor) or lengths.device.type == "cpu":
            return
        rule = next(r for r in RULES if r.key == "lengths_cpu")
        rep = self.report("device", func, tensor_slots(args, kwargs), sys._getframe(), "cpu",
                          rule=rule)
        raise DeviceMismatchError(replace(rep, op=""))  # NB: the title names the user's call

    # -- the failure path: everything below runs only once devices (or dtypes) differ
    def _slow(self, func: Any, args: Any, kwargs: Any) -> Any:
        __tracebackhide__ = True
        kwargs = kwargs or {}
        # NB: an indexed write is exempt for devices (cpu indices are fine) but fails on the
        # dtypes of the tensor written into and the values, autocast or not
        if self.check_dtype and _indexed_write(func, args) and not _is_compiling() \
                and _dtype_split(tensor_slots((args[0], args[2]), {})):
            raise DeviceMismatchError(self.report("dtype", func, tensor_slots(args, kwargs),
                                                  sys._getframe(), rule=_index_put_rule()))
        if _is_compiling() or _exempt(func, args, kwargs):
            return func(*args, **kwargs)
        slots = tensor_slots(args, kwargs)
        split = _device_split(func, slots)
        if split:
            if self.autofix:
                return self._autofix(func, args, kwargs, split)
            raise DeviceMismatchError(self.report("device", func, split, sys._getframe()))
        if self.check_dtype:
            index = _index_slots(func, slots)
            bad = [s for s in index if s.tensor.is_floating_point()]
            if bad:
                for s in bad:
                    s.where = "index="  # NB: the role the diagnosis reads
                raise DeviceMismatchError(self.report("index_dtype", func, slots,
                                                      sys._getframe()))
            # NB: autocast mixes dtypes by design; its ops cast, and the rest promote
            if _dtype_split([s for s in slots if s not in index]) and not _autocast(slots):
                raise DeviceMismatchError(self.report("dtype", func, slots, sys._getframe()))
        return func(*args, **kwargs)

    def report(self, kind: Kind, func: Any, slots: list[Slot], start: FrameType | None,
               expected: str | None = None, complete: bool = True,
               rule: Any = None) -> MismatchReport:
        """Name the culprits of a mismatch seen in ``func``'s arguments ``slots``; the stack is
        read from frame ``start`` outwards. ``expected``: the device, when it is known;
        ``complete``: also what the rest of the cell will trip on; ``rule``: the message
        table's row, when the guard knows which PyTorch check it stands in for."""
        from ..diagnosis._context import Failure
        from ..diagnosis._diagnosis import diagnose

        frames = _frames.stack_frames(start)
        return diagnose(Failure(kind, rule, op_name(func)), frames, self.ns, self.is_cell,
                        tensors=[(s.where, s.tensor) for s in slots],
                        forced=expected or self.device, complete=complete)

    # -- autofix
    def _autofix(self, func: Any, args: Any, kwargs: Any, slots: list[Slot]) -> Any:
        """Run ``func`` on copies of the stray arguments. NB: never on a copy of a tensor the op
        writes into (``self`` of an in-place op, ``out=``): the write would be lost; the other
        operands go to it instead, or the mismatch is raised."""
        __tracebackhide__ = True
        caller = _caller(sys._getframe(3))
        # NB: the devices are part of the site: the same line runs layers on several devices
        key = (func, caller.f_code, caller.f_lineno,
               tuple((s.where, str(s.tensor.device)) for s in slots))
        site = self._sites.get(key)
        rep = site[0] if site is not None else self._autofix_report(func, args, kwargs, slots)
        new_args, new_kwargs = list(args), dict(kwargs)
        expected = torch.device(rep.expected)
        written = {id(s.tensor) for s in _written(func, args, kwargs, slots)}
        for s in slots:
            t = s.tensor
            if t.device != expected and not _scalar_cpu(t) and id(t) not in written:
                try:
                    moved = t.to(expected)
                except Exception as e:  # NB: e.g. a meta tensor has no data to copy
                    raise DeviceMismatchError(rep, f"--autofix could not move "
                                              f"{_name_of(rep, s)} to {expected}: "
                                              f"{type(e).__name__}") from None
                s.put(new_args, new_kwargs, moved)
        if site is None:  # NB: counted once the copies exist: a refused site moved nothing
            site = self._sites[key] = [rep, 0]
        site[1] += 1
        return func(*new_args, **new_kwargs)

    def _autofix_report(self, func: Any, args: Any, kwargs: Any,
                        slots: list[Slot]) -> MismatchReport:
        """The report for a site seen for the first time, or raise what must not be fixed."""
        __tracebackhide__ = True
        written = _written(func, args, kwargs, slots)
        devices = {str(s.tensor.device) for s in written}
        forced = None
        if len(devices) > 1:
            raise DeviceMismatchError(self.report("device", func, slots, sys._getframe(),
                                                  complete=False),
                                      "--autofix does not move tensors an op writes into")
        if devices:
            (forced,) = devices
        rep = self.report("device", func, slots, sys._getframe(), expected=forced,
                          complete=False)
        if forced is not None and self.device is not None and forced != self.device:
            names = ", ".join(_name_of(rep, s) for s in written)
            raise DeviceMismatchError(
                self.report("device", func, slots, sys._getframe(), complete=False),
                f"--autofix never moves a tensor an op writes into ({names}, by "
                f"{op_name(func)}): the write would go to a copy; apply the fix above")
        refusal = _refuse(func, slots, rep)
        if refusal:
            raise DeviceMismatchError(rep, refusal)
        return rep

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


_INDEX_PUT = frozenset({"index_put", "index_put_"})


def _indexed_write(func: Any, args: Any) -> bool:
    """``t[idx] = v`` with a tensor or list among the indices (PyTorch's index put, which
    requires ``v`` in ``t``'s dtype), or ``index_put`` itself; ``t[0] = v`` copies, and casts."""
    name = getattr(func, "__name__", "")
    if len(args) < 3 or not (isinstance(args[0], Tensor) and isinstance(args[2], Tensor)):
        return False
    if name in _INDEX_PUT:
        return True
    if name != "__setitem__":
        return False
    idx = args[1] if type(args[1]) is tuple else (args[1],)
    return any(issubclass(type(i), Tensor | list) for i in idx)  # NB: no __class__ lookup


def _autocast(slots: list[Slot]) -> bool:
    """Autocast is on for the device type of the op's tensors."""
    types = {s.tensor.device.type for s in slots}
    return any(torch.is_autocast_enabled(t) for t in types if t in ("cpu", "cuda", "xpu", "mps"))


def _index_put_rule() -> Any:
    from ..diagnosis._messages import RULES

    return next(r for r in RULES if r.key == "index_put_dtype")


def make_guard(namespace: dict[str, Any] | None = None, *, dtype: bool = False,
               **options: Any) -> DeviceGuard:
    """The guard ``%%cuda_safe`` runs under; ``namespace`` defaults to the caller's globals."""
    ns = namespace if namespace is not None else sys._getframe(1).f_globals
    return (DtypeGuard if dtype else DeviceGuard)(ns, **options)


def _caller(f: FrameType) -> FrameType:
    while f.f_back is not None and f.f_code.co_filename.endswith("overrides.py"):
        f = f.f_back
    return f


def _pad(items: tuple[str, ...], n: int) -> list[str]:
    return list(items[:n]) + [items[-1] if items else ""] * max(0, n - len(items))
