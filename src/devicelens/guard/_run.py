"""Running a ``%%cuda_safe`` cell under the guard: the cell's own line numbers, its last value,
and PyTorch's own device/dtype errors turned into a :class:`~._mode.DeviceMismatchError`
carrying the diagnosis (and still an instance of the original exception's type).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

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
    code = compile(tree, filename, "exec", flags=flags, dont_inherit=True)
    try:
        with guard:
            exec(code, namespace)
            if last is not None:
                return eval(compile(last, filename, "eval", flags=flags, dont_inherit=True),
                            namespace)
    except Exception as exc:
        explained = _explained(exc, namespace, guard)
        if explained is None:
            raise
        raise explained from exc
    return None


def _explained(exc: Exception, namespace: dict[str, Any],
               guard: DeviceGuard) -> DeviceMismatchError | None:
    """``exc`` as a :class:`DeviceMismatchError` with its diagnosis, or None when it is not a
    device/dtype error (or the diagnosis fails: the original error then goes out unchanged)."""
    from ._mode import DeviceMismatchError

    if isinstance(exc, DeviceMismatchError):
        return None
    try:
        from .postmortem import diagnose_exception

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
