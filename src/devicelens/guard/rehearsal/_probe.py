"""Where a dtype mismatch began. PyTorch raises where mixed dtypes can no longer be promoted (a
Linear's float16 weight meets a float32 input), often layers after where they first met (a
float32 mask multiplied into float16 activations is promoted without a word). ``%%cuda_safe``'s
guard stops at that first meeting; the post-mortem asks it, on a sandboxed copy of the failing
cell, and the culprit is the tensor that brought the other dtype in.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..diagnosis._mismatch import MismatchReport
from ._attempt import Explain, Unit, attempt
from ._loop import Cell, _fake, _units, _where, seconds
from ._sandbox import run_forked


def first_mismatch(cell: Cell, ns: dict[str, Any], explain: Explain, until: float,
                   units: Sequence[Unit] = ()) -> tuple[MismatchReport, tuple[Any, ...]] | None:
    """The first mismatch met running ``cell`` again (after ``units``, a fix, where given) with
    its own runner (the guard's), in the sandbox by ``until`` (``time.monotonic()``), and the
    edits guessed where it was met (where its own fix is advice); None when it meets none or
    the run says nothing."""
    limit = min(seconds(), until - time.monotonic())
    if limit <= 0.5:
        return None
    out = run_forked(lambda: attempt(units, cell.filename, ns, cell.run, explain, _fake(),
                                     cell.tb), limit)
    if out.problem or out.value is None or out.value.report is None:
        return None
    return out.value.report, tuple(out.value.guesses)


#: where a mismatch happens (``cell In[3] line 40 (in f)``), not its text
place = _where


def fix_units(report: MismatchReport, cell: Cell, ns: dict[str, Any]) -> list[Unit]:
    """``report``'s fix as the rehearsal applies it: its code lines and its edits."""
    return _units(report, cell, ns)
