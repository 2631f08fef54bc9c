"""The last error's traceback, which can stop a move.

After a failed cell Python and IPython keep the traceback (``sys.last_traceback``, the
exception's ``__traceback__``, IPython's traceback formatter), and with it every frame of the
failed forward pass, whose locals hold views of parameters and autograd graphs: a parameter
that must be swapped is then "still held". Those frames have finished; only ``%debug`` and
``%tb`` can still reach them, so a move that needs it releases them, and says so.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

_NAMES = ("last_type", "last_value", "last_traceback", "last_exc")


def last_error() -> bool:
    """Whether a traceback of the last error is kept."""
    return any(getattr(sys, n, None) is not None for n in ("last_traceback", "last_exc",
                                                         "last_value"))


def release_last_error() -> bool:
    """Drop every reference to the last error's frames; True if there was one.

    NB: the exception objects stay (type and message, e.g. in IPython's ``_exit_code`` or
    ``last_execution_result``); only their tracebacks go, so ``%debug`` cannot open it any more.
    """
    excs = [getattr(sys, n, None) for n in ("last_value", "last_exc")]
    found = False
    for name in _NAMES:
        if getattr(sys, name, None) is not None:
            found = True
        if hasattr(sys, name):
            delattr(sys, name)
    for exc in excs:
        _drop_tracebacks(exc)
    ip = _ipython()
    if ip is not None:
        result = getattr(ip, "last_execution_result", None)
        _drop_tracebacks(getattr(result, "error_in_exec", None))
        for name in ("InteractiveTB", "SyntaxTB"):
            formatter: Any = getattr(ip, name, None)
            if getattr(formatter, "tb", None) is not None:
                found = True
                formatter.tb = None
    if found:
        gc.collect()  # NB: tracebacks and frames form reference cycles
    return found


def _drop_tracebacks(exc: Any) -> None:
    """``exc`` and the exceptions chained to it keep their messages, not their frames."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        e = todo.pop()
        if not issubclass(type(e), BaseException) or id(e) in seen:
            continue
        seen.add(id(e))
        BaseException.with_traceback(e, None)
        todo += [BaseException.__dict__["__cause__"].__get__(e),
                 BaseException.__dict__["__context__"].__get__(e)]


def _ipython() -> Any:
    mod = sys.modules.get("IPython")
    get = getattr(mod, "get_ipython", None) if mod is not None else None
    try:
        return get() if callable(get) else None
    except Exception:
        return None
