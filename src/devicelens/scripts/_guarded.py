"""``run --guard``: the notebook's guard over a whole script, naming culprits in the script's
own scopes and pointing at the script's lines.

NB: the script's namespace exists only once it starts, after the guard is entered, so the guard
reads the script's scopes from the stack when (and only when) it has a mismatch to explain.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from ..guard import _blame
from ..guard._blame import CellFiles
from ..guard._mismatch import Kind, MismatchReport
from ..guard._mode import DeviceGuard, DtypeGuard, Slot


class ScriptDeviceGuard(DeviceGuard):
    @property
    def ns(self) -> dict[str, Any]:
        """The script's names where the mismatch happens: globals and its functions' locals."""
        from ._explain import script_scope

        return script_scope(script_frames(sys._getframe(1)), self.is_cell)

    @ns.setter
    def ns(self, value: dict[str, Any]) -> None:
        pass  # NB: the guard's own namespace argument; the script's scopes win

    def report(self, kind: Kind, func: Any, slots: list[Slot],
               start: FrameType | None) -> MismatchReport:
        from ._explain import script_lines

        rep = super().report(kind, func, slots, start)
        return script_lines(rep, script_frames(start), self.is_cell)


class ScriptDtypeGuard(ScriptDeviceGuard, DtypeGuard):
    pass


def script_frames(start: FrameType | None) -> list[_blame.Frame]:
    """The script's frames, innermost first: those between ours and the runner's."""
    frames = _blame.stack_frames(start)
    inner = next((i for i, fr in enumerate(frames) if not _ours(fr)), len(frames))
    outer = next((i for i, fr in enumerate(frames) if i >= inner and _ours(fr)), len(frames))
    return frames[inner:outer]


def _ours(fr: _blame.Frame) -> bool:
    from .run import PACKAGE

    return fr.frame.f_code.co_filename.startswith(PACKAGE)


def script_guard(*, dtype: bool, autofix: bool, device: str | None,
                 is_cell: CellFiles) -> DeviceGuard:
    cls = ScriptDtypeGuard if dtype else ScriptDeviceGuard
    return cls({}, autofix=autofix, device=device, is_cell=is_cell)
