"""Plain-text views for terminals and every ``text/plain`` fallback."""

from __future__ import annotations

from itertools import repeat
from operator import add, mul
from typing import TYPE_CHECKING

from ..inspect.units import human_bytes
from ._fold import table
from ._report import headline, row_line
from ._rows import MAX_FINDINGS, Row, Table, more_findings

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import Snapshot
    from ..moves import MoveReport

_ICONS = {"error": "✖", "warning": "▲", "info": "●"}
_HEAD = ("name", "kind", "device", "dtype", "shape", "memory")
_FLAG = {True: " !", False: ""}


def totals_line(snap: Snapshot) -> str:
    parts = [f"{t.device}: {t.objects} object{'s' * (t.objects != 1)}, {human_bytes(t.nbytes)}"
             for t in snap.totals]
    return " · ".join(parts) if parts else "no tensors"


def table_lines(rs: list[Row]) -> list[str]:
    """The rows as aligned lines. NB: column by column, at C speed: 60 models make a thousand
    rows, and a Python step per cell was most of ``%devices --text``'s rendering."""
    if not rs:
        return ["  ".join(_HEAD)]
    levels, names, kinds, devices, dtypes, shapes, nbytes, flagged = zip(*rs, strict=True)
    first = map(add, map(add, map(mul, repeat("  "), levels), names),
                map(_FLAG.__getitem__, flagged))
    cols = [[head, *col] for head, col in zip(_HEAD, (
        first, kinds, map(", ".join, devices), map(", ".join, dtypes), shapes,
        map(human_bytes, nbytes)), strict=True)]
    line = "  ".join(f"{{:<{max(map(len, col))}}}" for col in cols)
    return list(map(str.rstrip, map(line.format, *cols)))


def findings_text(findings: list[Finding], *, show_all: bool = True) -> list[str]:
    """``show_all`` False: the first :data:`MAX_FINDINGS` (errors first), then one line."""
    if not findings:
        return ["No device or dtype problems found."]
    n = len(findings)
    out = [f"{n} finding{'s' * (n != 1)}:"]
    for f in findings if show_all else findings[:MAX_FINDINGS]:
        out.append(f"{_ICONS[f.severity]} {f.severity}: {f.title}")
        out.append(f"  {f.message}")
        if f.fix:
            out.append("  fix:")
            out += [f"    {line}" for line in f.fix.splitlines()]
        if f.verdict:
            out.append(f"  {f.verdict}")
    if not show_all and n > MAX_FINDINGS:
        out.append(more_findings(findings[MAX_FINDINGS:]))
    return out


def snapshot_text(snap: Snapshot | None, findings: list[Finding], *,
                  show_all: bool = False, rs: Table | None = None) -> str:
    """``rs``: the table, where a caller already has it (the HTML view of the same bundle)."""
    out: list[str] = []
    if snap is not None:
        n = len(snap)  # NB: no record built to count (a compact row's is built on demand)
        out.append(f"devicelens — {n} object{'s' * (n != 1)} · {totals_line(snap)}")
        if n:
            tab = table(snap, findings, show_all=show_all) if rs is None else rs
            out += table_lines(tab.rows)
            if tab.note:
                out.append(tab.note)
        if snap.truncated:
            out.append("(truncated: some containers were too large or too deep to list fully)")
        if snap.skipped:
            out.append(f"(skipped, could not be inspected: {', '.join(snap.skipped)})")
        out.append("")
    out += findings_text(findings, show_all=show_all)
    return "\n".join(out)


MAX_REPORT_ROWS = 20


def report_text(r: MoveReport) -> str:
    out = [headline(r)]
    if r.ok and r.moved:
        out += [f"  {m.path}: {row_line(m)}" for m in r.moved[:MAX_REPORT_ROWS]]
        rest = r.moved[MAX_REPORT_ROWS:]
        if rest:
            out.append(f"  … and {len(rest)} more ({human_bytes(sum(m.nbytes for m in rest))})")
    if r.applied:
        out.append("Would apply:" if r.dry_run else "Applied:")
        out += [f"  ✔ {title}" for title in r.applied]
    if r.skipped:
        out.append("Not applied:")
        out += [f"  {title}: {why}" for title, why in r.skipped]
    if r.refused:
        out.append("Refused:")
        out += [f"  {path}: {why}" for path, why in r.refused]
    out += [f"Note: {n}" for n in r.notes]
    return "\n".join(out)
