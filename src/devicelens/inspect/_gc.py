"""The cyclic garbage collector paused while devicelens builds records, plans or frames.

They are many small acyclic objects: a collection in the middle of building them walks every
one without freeing any (it doubled a push and tripled a plan), and where they are dropped before
the pause ends (``%devices --text``) no collection ever has to look at them.
"""

from __future__ import annotations

import gc


class gc_paused:  # NB: named as the function it replaced: ``with gc_paused():``
    """NB: re-enabled only where it was on: a caller's own pause (or the user's) is kept.
    A class rather than a ``@contextmanager`` generator: entered on every snapshot and frame,
    and a generator costs several times more to enter and leave."""

    __slots__ = ("was",)

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()
