"""What a move report says in one sentence, the same in every view (text, HTML, widget; the
panel's ``labextension/src/view.ts:reportHeadline`` writes the same words).

NB: counts what the rows say: tensors as tensors (a row stands for several), objects as the
namespace names they belong to, casts as casts; never rows as any of these.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..inspect.units import human_bytes
from ..moves import REMAPPED

if TYPE_CHECKING:
    from ..moves import Move, MoveReport

_ROOT = re.compile(r"[^.\[]+")


def plural(n: int, word: str) -> str:
    """``1 tensor``, ``2 tensors``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def root_of(path: str) -> str:
    """The namespace name a report row belongs to: ``batch['x']`` -> ``batch``."""
    m = _ROOT.match(path)
    return m.group(0) if m else path


def _clause(rows: list[Move], verb: str, to: list[str]) -> str:
    return f"{verb} {plural(sum(m.tensors for m in rows), 'tensor')} to {', '.join(to)}"


def headline(r: MoveReport) -> str:
    """The report's first line.

    ``Moved 60 tensors to meta (4 objects, 142.9 KiB).``; ``Would move 2 tensors to cuda:0
    and cast 1 tensor to float32 (1 object, 8.0 KiB).``; what happened when nothing did.
    """
    if not r.ok:
        return f"{'Would fail' if r.dry_run else 'Nothing was changed'}: {r.error}"
    if not r.moved and r.applied:
        n = len(r.applied)
        return f"{'Would apply' if r.dry_run else 'Applied'} {n} fix{'es' * (n != 1)}."
    if not r.moved:
        if not r.target:  # NB: fixes, not a move-all: there is no one device to name
            return "Nothing to fix: no automatic fix has anything to do here."
        return f"Nothing to move: everything in scope is already on {r.target}."
    remapped = [m for m in r.moved if m.source == REMAPPED]
    moved = [m for m in r.moved if m.source != REMAPPED and (m.device is not None
                                                             or m.dtype is None)]
    cast = [m for m in r.moved if m.dtype is not None]
    clauses = []
    if moved:
        devices = list(dict.fromkeys(m.device or m.target for m in moved))
        clauses.append(_clause(moved, "move" if r.dry_run else "moved", devices))
    if cast:
        dtypes = list(dict.fromkeys(m.dtype for m in cast if m.dtype is not None))
        clauses.append(_clause(cast, "cast", dtypes))
    if remapped:  # NB: an optimizer put back onto its module's current parameters
        clauses.append(f"{'remap' if r.dry_run else 'remapped'} "
                       f"{plural(len(remapped), 'optimizer')} onto current parameters")
    text = ("would " if r.dry_run else "") + " and ".join(clauses)
    objects = len({root_of(m.path) for m in r.moved})
    total = human_bytes(sum(m.nbytes for m in r.moved))
    return f"{text[0].upper()}{text[1:]} ({plural(objects, 'object')}, {total})."


def row_detail(m: Move) -> str:
    """How much one report row holds: ``2 tensors, 2.0 KiB``."""
    return f"{plural(m.tensors, 'tensor')}, {human_bytes(m.nbytes)}"


def row_line(m: Move) -> str:
    """One row of a report, after its path: ``cpu → meta (2 tensors, 2.0 KiB)``."""
    return f"{m.source} → {m.target} ({row_detail(m)})"
