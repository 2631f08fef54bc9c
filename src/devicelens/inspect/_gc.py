"""The cyclic garbage collector paused while devicelens builds records, plans or frames.

They are many small acyclic objects: a collection in the middle of building them walks every
one without freeing any (it doubled a push and tripled a plan), and where they are dropped before
the pause ends (``%devices --text``) no collection ever has to look at them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """NB: re-enabled only where it was on: a caller's own pause (or the user's) is kept."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
