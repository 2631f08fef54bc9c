"""Cells with a top-level ``await`` (IPython's autoawait: ``await diarizer.diarize(pcm)``), run
where IPython's event loop cannot serve them.

Compiled with ``PyCF_ALLOW_TOP_LEVEL_AWAIT``, such a cell evaluates to a coroutine instead of
running. A rehearsal's sandbox (a forked child, whose copy of the kernel's loop is not running)
runs it to the end on a loop of its own. In the kernel, ``%%cuda_safe`` runs it step by step
where it is: a cell magic runs outside IPython's event loop, so a cell that must wait on that
loop is stopped with an error that says so.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import types
from typing import Any

#: compile flags of a cell, which may await at its top level as IPython lets it
FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def awaits(code: types.CodeType) -> bool:
    """``code`` is a cell that awaits at its top level (it evaluates to a coroutine)."""
    return bool(code.co_flags & inspect.CO_COROUTINE)


def run(code: types.CodeType, ns: dict[str, Any], *, own_loop: bool) -> Any:
    """Run the cell ``code`` in ``ns`` and give its value (None for statements); a cell that
    awaits is run to its end, on a new event loop where ``own_loop`` (a sandbox's child),
    else step by step (:func:`drive`)."""
    if not awaits(code):
        exec(code, ns)
        return None
    coro = eval(code, ns)
    if not own_loop:
        return drive(coro)
    asyncio.events._set_running_loop(None)  # NB: the kernel's loop, copied by fork, not running
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def drive(coro: Any) -> Any:
    """Run ``coro`` to its end on the spot: an ``await`` of coroutines, or of a bare yield
    (``asyncio.sleep(0)``), needs no loop; one of a future does, and stops it."""
    try:
        while True:
            step = coro.send(None)
            if step is not None:
                coro.close()
                raise RuntimeError(
                    "this cell awaits something that needs IPython's event loop, which a cell "
                    "magic cannot reach; run it without %%cuda_safe (the post-mortem still "
                    "explains a device or dtype failure)")
    except StopIteration as stop:
        return stop.value
