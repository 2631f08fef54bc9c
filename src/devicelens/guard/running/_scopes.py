"""Where a user's names live outside a notebook: a script's globals *and* its functions'
locals (``model`` and ``batch`` made inside ``main()``), read from the stack at a failure.

Shared by the scoped guard (:mod:`._scoped`) and ``devicelens run``'s post-mortem. NB: imports
no torch.
"""

from __future__ import annotations

import os
from dataclasses import replace
from types import FrameType
from typing import Any

from ..diagnosis._mismatch import MismatchReport
from . import _frames
from ._frames import CellFiles, Frame, cell_lines, frame_locals

# NB: devicelens/, three folders up from guard/running/_scopes.py
PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def user_files() -> CellFiles:
    """The user's code: notebook cells, and every file that is not Python's, an installed
    package's or devicelens' own (scripts, and modules imported from a notebook)."""
    import sysconfig

    paths = sysconfig.get_paths()
    skip = ("<", PACKAGE, *{paths["stdlib"], paths["purelib"], paths["platlib"]})
    cells = _frames.default_cell_files()
    return lambda fn: not fn.startswith(PACKAGE) and (cells(fn) or not fn.startswith(skip))


def user_scope(frames: list[Frame], is_cell: CellFiles) -> dict[str, Any]:
    """The globals of the outermost user frame, then the locals of the user's functions.

    NB: outer scopes win (a tensor is named where it was made, and fixed there); methods'
    locals (``x`` in ``forward``) stay locals: the blame names those by their frame.
    """
    user = [fr.frame for fr in frames if is_cell(fr.frame.f_code.co_filename)]
    if not user:
        return {}
    top = next((f for f in reversed(user) if f.f_code.co_name == "<module>"), user[-1])
    scope = dict(top.f_globals)
    for f in reversed(user):
        loc = frame_locals(f)
        if f.f_code.co_name == "<module>" or "self" in loc:
            continue
        for k, v in loc.items():
            scope.setdefault(k, v)
    return scope


def function_lines(rep: MismatchReport, frames: list[Frame],
                   is_cell: CellFiles) -> MismatchReport:
    """"at" the failing line, "from" the outermost *function* line: a script's top level that
    only calls ``main()`` says nothing."""
    user = [fr for fr in frames if is_cell(fr.frame.f_code.co_filename)]
    if len(user) < 2 or user[-1].frame.f_code.co_name != "<module>":
        return rep
    return replace(rep, lines=tuple(cell_lines(user[:-1], is_cell)))


def user_frames(start: FrameType | None) -> list[Frame]:
    """Frames from ``start`` outwards, innermost first, between devicelens' own: the guard's
    inside, and the runner of ``devicelens run`` outside."""
    frames = _frames.stack_frames(start)
    inner = next((i for i, fr in enumerate(frames) if not _ours(fr)), len(frames))
    outer = next((i for i, fr in enumerate(frames) if i >= inner and _ours(fr)), len(frames))
    return frames[inner:outer]


def _ours(fr: Frame) -> bool:
    return fr.frame.f_code.co_filename.startswith(PACKAGE)
