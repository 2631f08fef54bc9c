"""The only module that changes user state: move all to a device, or apply one finding's fix.

(Contract only for now: the engine lands with the move-engine issue.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

Progress = Callable[[int, int], None]


class Move(NamedTuple):
    path: str
    source: str
    target: str
    nbytes: int


@dataclass(frozen=True)
class MoveReport:
    """What a move did (or, with ``dry_run``, would do). ``ok`` False means nothing changed."""

    ok: bool
    dry_run: bool
    target: str
    moved: tuple[Move, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    bytes_by_device: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    notes: tuple[str, ...] = ()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        from .render import report_mimebundle

        return report_mimebundle(self)
