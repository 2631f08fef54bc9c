"""A script's fix is an edit of the script: its ``fix:`` lines put before the statement that
failed, in the function whose names they use.

In a notebook a ``fix:`` block is run once in the next cell, and the objects it mends stay
mended. A script has no next cell: run again, it builds its objects anew, so a line run "after
the failure" mends nothing, and a fix that names a local of ``main()`` cannot run anywhere but
there. The same lines, written into the script just before the failing statement (at its
indentation), run where those names are bound, every time the script runs.

NB: reads the traceback's frames and the script's text only; never runs user code.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import replace
from typing import Any

from ..running._frames import CellFiles, Frame, frame_locals, traceback_frames
from ._edits import Edit, insert_before
from ._mismatch import MismatchReport
from ._source import frame_code, statement_at

_KNOWN = frozenset(dir(builtins)) | {"torch", "nn", "F", "np"}


def fixes_as_edit(rep: MismatchReport, tb: Any, is_script: CellFiles) -> MismatchReport:
    """``rep`` with its ``fix:`` lines as one edit of the script (see the module's docstring);
    ``rep`` itself when there are none, or no frame of the script binds the names they use."""
    if not rep.fixes:
        return rep
    text = "\n".join(rep.fixes)
    roots = _roots(text)
    if roots is None:
        return rep
    frame = _scope(traceback_frames(tb), roots, is_script)
    if frame is None:
        return rep
    edit = _before(frame, text)
    if edit is None or any(_overlaps(edit, e) for e in rep.edits):
        return rep
    return replace(rep, fixes=(), edits=(edit, *rep.edits))


def _roots(text: str) -> set[str] | None:
    """The names the fix reads before binding them (``model`` in ``model.to(...)``); ``None``
    when the fix is no valid Python."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    bound: set[str] = set()
    read: set[str] = set()
    for stmt in tree.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                    and node.id not in bound:
                read.add(node.id)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) \
                    and node.id not in read:
                bound.add(node.id)
    return read - _KNOWN


def _scope(frames: list[Frame], roots: set[str], is_script: CellFiles) -> Frame | None:
    """The outermost frame of the script that sees every name in ``roots``: its globals at the
    top level, a function's locals and globals. NB: outer scopes win, as they do in naming."""
    for fr in reversed(frames):
        f = fr.frame
        if not is_script(f.f_code.co_filename):
            continue
        seen = f.f_globals if f.f_code.co_name == "<module>" else {**f.f_globals,
                                                                  **frame_locals(f)}
        if all(r in seen for r in roots):
            return fr
    return None


def _before(fr: Frame, text: str) -> Edit | None:
    """The statement ``fr`` runs, with ``text`` put before it at its indentation."""
    code = frame_code(fr.frame)
    if code is None:
        return None
    stmt = statement_at(code, fr.lineno)
    return insert_before(code, stmt, text) if stmt is not None else None


def _overlaps(a: Edit, b: Edit) -> bool:
    """Two edits quoting the same lines of one file cannot both be applied as printed."""
    return a.file == b.file and bool({ln for ln in a.old if ln.strip()} & set(b.old))
