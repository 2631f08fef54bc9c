"""One row of a move's report, plain data: the plan makes them (:mod:`._final`, one a name that
moves as a column in :mod:`._loose`) and :class:`~._report.MoveReport` lists them."""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """One row of a report: what (a namespace name or a fixed path) went from where to where.

    ``device`` is the device its tensors go to, None when they stay on theirs; ``dtype`` the
    dtype they are cast to, None when they keep theirs. ``source``/``target`` say both as text.
    """

    path: str
    source: str
    target: str
    nbytes: int
    tensors: int = 1
    device: str | None = None
    dtype: str | None = None
