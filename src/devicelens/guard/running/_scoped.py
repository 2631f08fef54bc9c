"""The guard outside a notebook (``devicelens.guard()``, ``devicelens run --guard``): culprits
named in the scopes the user's code has at the failure (:mod:`._scopes`), not in one fixed
namespace: they exist only once the code runs, so they are read when, and only when, there is a
mismatch to explain.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from ..diagnosis._mismatch import Kind, MismatchReport
from ._mode import DeviceGuard, DtypeGuard
from ._scopes import function_lines, user_files, user_frames, user_scope
from ._slots import Slot


class ScopedDeviceGuard(DeviceGuard):
    """A :class:`DeviceGuard` whose namespace is the user's scopes at the failure."""

    @property
    def ns(self) -> dict[str, Any]:
        return user_scope(user_frames(sys._getframe(1)), self.is_cell)

    @ns.setter
    def ns(self, value: dict[str, Any]) -> None:
        pass  # NB: the constructor's namespace argument; the scopes at the failure win

    def report(self, kind: Kind, func: Any, slots: list[Slot], start: FrameType | None,
               *args: Any, **kwargs: Any) -> MismatchReport:
        rep = super().report(kind, func, slots, start, *args, **kwargs)
        return function_lines(rep, user_frames(start), self.is_cell)


class ScopedDtypeGuard(ScopedDeviceGuard, DtypeGuard):
    pass


def scoped_guard(dtype: bool = False, **options: Any) -> DeviceGuard:
    """``devicelens.guard(dtype=False, autofix=False, device=None, is_cell=None)``."""
    options["is_cell"] = options.get("is_cell") or user_files()
    return (ScopedDtypeGuard if dtype else ScopedDeviceGuard)({}, **options)
