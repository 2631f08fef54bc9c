"""Running a ``%%cuda_safe`` cell under the guard: the cell's own line numbers, its last value,
and PyTorch's own device/dtype errors turned into a :class:`~._mode.DeviceMismatchError`
carrying the diagnosis (and still an instance of the original exception's type).
"""

from __future__ import annotations

import ast
import contextlib
import traceback
from typing import TYPE_CHECKING, Any

from . import _awaits

if TYPE_CHECKING:
    from ._mode import DeviceGuard, DeviceMismatchError


def run_cell(source: str, namespace: dict[str, Any], guard: DeviceGuard, *, filename: str,
             line_offset: int = 0, flags: int = 0) -> Any:
    """Execute ``source`` in ``namespace`` under ``guard``; return the last expression's value.

    ``line_offset`` shifts line numbers so they match the cell as the user sees it. A device or
    dtype error PyTorch raises inside the cell comes out as a :class:`DeviceMismatchError`
    (still an instance of the original exception's type) with the diagnosis.
    """
    __tracebackhide__ = True
    tree = ast.parse(source, filename)
    ast.increment_lineno(tree, line_offset)
    last = None
    tail = tree.body[-1] if tree.body else None
    if isinstance(tail, ast.Expr):
        tree.body.pop()
        last = ast.Expression(tail.value)
    # NB: a cell may await at its top level, as IPython lets it (:mod:`._awaits`)
    code = compile(tree, filename, "exec", flags=flags | _awaits.FLAGS, dont_inherit=True)
    try:
        with guard:
            _awaits.run(code, namespace, own_loop=False)
            if last is not None:
                shown = compile(last, filename, "eval", flags=flags | _awaits.FLAGS,
                                dont_inherit=True)
                value = eval(shown, namespace)
                return _awaits.drive(value) if _awaits.awaits(shown) else value
    except Exception as exc:
        from ._mode import DeviceMismatchError

        explained = exc if isinstance(exc, DeviceMismatchError) else _explained(
            exc, namespace, guard)
        if explained is None:
            raise
        with contextlib.suppress(Exception):  # NB: a rehearsal never hides the error it explains
            _rehearse(explained, namespace, guard, filename,
                      tree.body[0].lineno if tree.body else 0, exc.__traceback__)
        if explained is exc:
            raise
        raise explained from exc
    return None


def _rehearse(err: DeviceMismatchError, namespace: dict[str, Any], guard: DeviceGuard,
              filename: str, first: int, raised: Any = None) -> None:
    """``err`` with its fix rehearsed (:mod:`.rehearsal`): the cell runs again under a guard
    like ``guard`` on a sandboxed copy of the namespace. NB: ``err`` is changed in place, so
    its traceback stays the one the user's code raised."""
    from .. import rehearsal
    from ..postmortem import diagnose_exception
    from ._mode import DeviceMismatchError, make_guard

    if guard.autofix:
        return
    # NB: an error explained after the fact (not raised by the guard) has no traceback of its
    # own yet: the frames are the original error's
    tb = err.__traceback__ or raised
    line = max((line for f, line in traceback.walk_tb(tb) if f.f_code.co_filename == filename),
               default=first)

    def run(code: Any, ns: dict[str, Any]) -> None:
        with make_guard(ns, dtype=guard.check_dtype, filename=filename):
            _awaits.run(code, ns, own_loop=True)  # NB: in the sandbox's child

    def again(exc: BaseException, ns: dict[str, Any]) -> Any:
        if isinstance(exc, DeviceMismatchError):
            return exc.report
        return diagnose_exception(exc, exc.__traceback__, ns, guard.is_cell)

    cell = rehearsal.Cell(filename, line, run, tb)
    report = rehearsal.verify(err.report, cell, namespace, again)
    if report is not err.report:
        old = err.report.text()
        text = str(err)
        err.report = report
        err.args = (report.text() + text[len(old):] if text.startswith(old) else report.text(),)


def _explained(exc: Exception, namespace: dict[str, Any],
               guard: DeviceGuard) -> DeviceMismatchError | None:
    """``exc`` as a :class:`DeviceMismatchError` with its diagnosis, or None when it is not a
    device/dtype error (or the diagnosis fails: the original error then goes out unchanged)."""
    from ._mode import DeviceMismatchError

    if isinstance(exc, DeviceMismatchError):
        return None
    try:
        from ..postmortem import diagnose_exception

        report = diagnose_exception(exc, exc.__traceback__, namespace, guard.is_cell)
    except Exception:  # NB: a diagnosis must never hide the original error
        return None
    if report is None:
        return None
    err: DeviceMismatchError = _mismatch_type(type(exc))(report)
    return err


_TYPES: dict[type, type] = {}


def _mismatch_type(original: type) -> type:
    """DeviceMismatchError, also an ``original`` (``except IndexError`` keeps working)."""
    from ._mode import DeviceMismatchError

    if issubclass(DeviceMismatchError, original) or original.__module__ != "builtins":
        return DeviceMismatchError
    if original not in _TYPES:
        _TYPES[original] = type(f"DeviceMismatchError[{original.__name__}]",
                                (DeviceMismatchError, original), {})
    return _TYPES[original]
