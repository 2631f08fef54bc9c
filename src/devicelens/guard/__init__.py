"""Catching a mismatch while a cell runs, and explaining it: pre-flight, guard, post-mortem.

Before the cell: :mod:`.preflight` reads its AST. While it runs: the ``TorchFunctionMode`` in
:mod:`._mode`. After a failure: :mod:`.postmortem`. All three name culprits through
:mod:`._blame` and explain them through :mod:`._mismatch`.

NB: importing this package imports no torch; the mode's classes load on first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["AutofixReport", "DeviceGuard", "DeviceMismatchError", "DtypeGuard", "make_guard",
           "run_cell"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import _mode

        return getattr(_mode, name)
    raise AttributeError(f"module 'devicelens.guard' has no attribute {name!r}")
