"""The progress bar ``%devices --to`` draws for large moves: a ``(done, total)`` callback."""

from __future__ import annotations

import sys
from typing import TextIO


class ConsoleProgress:
    """A ``(done, total)`` callback drawing a one-line bar, only for moves over ``min_bytes``."""

    def __init__(self, min_bytes: int = 1 << 30, stream: TextIO | None = None,
                 width: int = 30) -> None:
        self.min_bytes = min_bytes
        self.stream = stream
        self.width = width
        self._last = -1
        self._open = False

    def __call__(self, done: int, total: int) -> None:
        if total < self.min_bytes or total <= 0:
            return
        pct = min(100, done * 100 // total)
        if pct == self._last:
            return
        from ..inspect import human_bytes

        self._last = pct
        out = self.stream or sys.stdout
        filled = self.width * min(done, total) // total
        out.write(f"\rdevicelens: moving [{'#' * filled}{'.' * (self.width - filled)}] "
                  f"{human_bytes(done)} / {human_bytes(total)}")
        self._open = done < total
        if not self._open:
            out.write("\n")
        out.flush()

    def close(self) -> None:
        """End the bar's line if the move stopped before 100%."""
        if self._open:
            (self.stream or sys.stdout).write("\n")
            self._open = False


def console_progress(min_bytes: int = 1 << 30, stream: TextIO | None = None) -> ConsoleProgress:
    """The progress bar ``%devices --to`` shows for moves of more than ~1 GB."""
    return ConsoleProgress(min_bytes, stream)
