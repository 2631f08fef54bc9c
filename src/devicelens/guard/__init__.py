"""Catching a mismatch while a cell runs, and explaining it: pre-flight, guard, post-mortem.

Before the cell: :mod:`.preflight` reads its AST. While it runs: the ``TorchFunctionMode`` in
:mod:`._mode`. After a failure: :mod:`.postmortem`. All three name culprits through
:mod:`._blame` and explain them through :mod:`._mismatch`.

NB: importing this package imports no torch; the mode's classes load on first use.
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["AutofixReport", "DeviceGuard", "DeviceMismatchError", "DtypeGuard", "make_guard",
           "run_cell"]


def __getattr__(name: str) -> Any:
    if name == "run_cell":
        from .running import _run

        return _run.run_cell
    if name in __all__:
        from .running import _mode

        return getattr(_mode, name)
    raise AttributeError(f"module 'devicelens.guard' has no attribute {name!r}")


class _CallableModule(types.ModuleType):
    """``devicelens.guard(dtype=False)`` is the guard as a context manager.

    NB: the public name and this subpackage share one attribute of ``devicelens`` (importing a
    submodule rebinds it), so the package itself is what gets called.
    """

    def __call__(self, dtype: bool = False, **options: Any) -> Any:
        """Check every torch op inside ``with devicelens.guard():`` and raise
        ``DeviceMismatchError`` naming the variables of the code that failed (its globals and
        its functions' locals); ``dtype=True`` also checks floating dtypes. Options:
        ``autofix``, ``device`` (see ``%%cuda_safe``)."""
        from .running._scoped import scoped_guard

        return scoped_guard(dtype=dtype, **options)


sys.modules[__name__].__class__ = _CallableModule
