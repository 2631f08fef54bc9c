"""The cyclic garbage collector paused while devicelens builds records, plans or frames.

They are many small acyclic objects: a collection in the middle of building them walks every
one without freeing any (it doubled a push and tripled a plan), and where they are dropped before
the pause ends (``%devices --text``) no collection ever has to look at them.
"""

from __future__ import annotations

import gc
import threading

_MAIN = threading.main_thread()


class gc_paused:  # NB: named as the function it replaced: ``with gc_paused():``
    """NB: re-enabled only where it was on: a caller's own pause (or the user's) is kept.
    Only the main thread pauses: the collector is one switch for the whole process, and a panel
    request served on a subshell while a cell runs could not tell a ``gc.disable()`` the cell
    made meanwhile from its own, so it would turn the user's collector back on. Off the main
    thread the collector is left alone (a build there may take a collection).
    A class rather than a ``@contextmanager`` generator: entered on every snapshot and frame,
    and a generator costs several times more to enter and leave."""

    __slots__ = ("was",)

    def __enter__(self) -> None:
        self.was = False
        if threading.current_thread() is _MAIN:
            self.was = gc.isenabled()
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()
