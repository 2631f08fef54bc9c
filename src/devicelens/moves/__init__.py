"""The only package that changes user state: move everything to a device, or apply fixes.

Plan (:mod:`._plan`, :mod:`._final`) -> allocate every new tensor -> commit with an undo log
(:mod:`._apply`), so an out-of-memory error or a bad device leaves the namespace as it was.
"""

from __future__ import annotations

from ._engine import (
    ConsoleProgress,
    Move,
    MoveReport,
    apply_all_fixes,
    apply_fix,
    apply_plan,
    console_progress,
    move_all,
    parse_device,
    plan_fixes,
    plan_move,
)

__all__ = ["ConsoleProgress", "Move", "MoveReport", "apply_all_fixes", "apply_fix", "apply_plan",
           "console_progress", "move_all", "parse_device", "plan_fixes", "plan_move"]
