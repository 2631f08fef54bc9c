"""The diagnosis ``devicelens run`` prints after a script's traceback: the notebook's post-mortem
(:func:`~devicelens.guard.postmortem.explain`), seen from this rank under torchrun and tagged
``[rank r/N, local_rank l]``.

NB: never raises and never runs user code; ranks that did not fail with a mismatch print nothing.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from ..guard.diagnosis._in_script import fixes_as_edit
from ..guard.diagnosis._mismatch import MismatchReport
from ..guard.running._frames import CellFiles, traceback_frames
from ..guard.running._scopes import function_lines, user_scope
from ..inspect.ranks import RankInfo, rank_info


def tag(info: RankInfo | None = None) -> str:
    """`` [rank 1/2, local_rank 1]`` in a distributed run, '' otherwise."""
    info = info if info is not None else rank_info()
    return f" {info.tag}" if info is not None else ""


def explain_script(exc: BaseException, tb: TracebackType | None, is_cell: CellFiles) -> str | None:
    """``devicelens [rank ...]: <headline>`` and the report's body, or ``None``."""
    try:
        return _explain(exc, tb, is_cell)
    except Exception:  # NB: a diagnosis must never hide the original error
        return None


def _explain(exc: BaseException, tb: TracebackType | None, is_cell: CellFiles) -> str | None:
    info = rank_info()
    frames = traceback_frames(tb)
    ns = user_scope(frames, is_cell)
    if _guard_error(exc):
        # NB: the guard's message *is* the report: repeat it only to say which rank it is, and
        # what this rank's own GPU changes (check() has seen the rank already)
        rep = getattr(exc, "report", None)
        if info is None or rep is None:
            return None
        if rep.op != "check":
            rep = _rejudge(rep, info, ns, frames)
        return f"devicelens{tag(info)}: {rep.text()}"
    from ..guard.postmortem import explain

    headline = ""
    rep = explain(exc, tb, ns, is_cell)
    if rep is None and info is not None and "torch" in sys.modules:
        from ._dist import explain_dist

        found = explain_dist(exc, frames, ns, is_cell, info)
        if found is not None:
            headline, rep = found
    if rep is None:
        return None
    rep = function_lines(rep, frames, is_cell)
    if info is not None:
        rep = _rejudge(rep, info, ns, frames)
    if info is None:
        rep = fixes_as_edit(rep, tb, is_cell)
    rep = _rehearsed(rep, tb, info, is_cell)
    return f"devicelens{tag(info)}: {headline or rep.headline()}\n{rep.body()}"


def _rehearsed(rep: MismatchReport, tb: TracebackType | None, info: RankInfo | None,
               is_cell: CellFiles) -> MismatchReport:
    """``rep`` once its fix was rehearsed: the script run again from its top in a forked
    sandbox, the fix applied as printed (an edit of the script's text, a line run before it),
    as the notebook's post-mortem rehearses a cell. NB: a rank of a distributed run is not
    rehearsed (its process group cannot be copied into a sandbox), and says so."""
    from ..guard.postmortem import rehearsed

    if info is not None:
        from dataclasses import replace

        return replace(rep, verdict="not verified: a rank of a distributed run is not rehearsed")
    return rehearsed(rep, tb, _globals(tb, is_cell), is_cell)


def _globals(tb: TracebackType | None, is_cell: CellFiles) -> dict[str, Any]:
    """The script's own globals (``__main__``'s), where a rehearsal runs it again."""
    from ..guard.postmortem import outer_cell

    outer = outer_cell(tb, is_cell)
    return outer.frame.f_globals if outer is not None else {}


def _rejudge(rep: MismatchReport, info: RankInfo, ns: dict[str, Any],
             frames: list[Any]) -> MismatchReport:
    from ._dist import rejudge

    return rejudge(rep, info, ns, frames)


def _guard_error(exc: BaseException) -> bool:
    mode = sys.modules.get("devicelens.guard.running._mode")
    return mode is not None and isinstance(exc, mode.DeviceMismatchError)
