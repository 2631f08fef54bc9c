"""The only package that changes user state: move everything to a device, or apply fixes.

Plan (:mod:`._plan`, :mod:`._final`) -> allocate every new tensor -> commit with an undo log
(:mod:`._apply`, :mod:`._swap`), so an out-of-memory error, a bad device or a Ctrl-C leaves the
namespace as it was. The entry points report failures (:mod:`._report`); they never raise.
"""

from __future__ import annotations

from ._device import parse_device
from ._engine import apply_all_fixes, apply_fix, apply_plan, move_all, plan_fixes, plan_move
from ._progress import ConsoleProgress, console_progress
from ._report import REMAPPED, MoveReport
from ._row import Move

__all__ = ["REMAPPED", "ConsoleProgress", "Move", "MoveReport", "apply_all_fixes", "apply_fix",
           "apply_plan", "console_progress", "move_all", "parse_device", "plan_fixes", "plan_move"]
