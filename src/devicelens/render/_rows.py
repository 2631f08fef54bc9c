"""Table rows shared by the text, HTML and widget views, and the pieces they are made of: what
to show, not how. Which rows a view shows (every one, or folded to fit a screen) is
:mod:`devicelens.render._fold`'s.
"""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import ObjectRecord, TensorRecord

#: Okabe–Ito, colour-blind safe; the device is always written as text beside its colour.
#: NB: mirrored in labextension/src/tokens.ts (DEVICE_COLOURS); tests keep them equal.
DEVICE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
                  "#F0E442", "#000000")
CPU_COLOUR = "#6F6F6F"
META_COLOUR = "#A58AFF"
OTHER_COLOUR = "#8C564B"


def device_colour(device: str) -> str:
    kind, _, index = device.partition(":")
    if kind == "cpu":
        return CPU_COLOUR
    if kind == "meta":
        return META_COLOUR
    if kind in ("cuda", "xpu", "mps", "hip"):
        n = int(index) if index.isdigit() else 0
        return DEVICE_COLOURS[n % len(DEVICE_COLOURS)]
    return OTHER_COLOUR


class Row(NamedTuple):
    level: int  # 0: a namespace name; 1+: inside it
    name: str
    kind: str
    devices: tuple[str, ...]
    dtypes: tuple[str, ...]
    shape: str
    nbytes: int
    flagged: bool


def shape_str(shape: tuple[int, ...] | list[int] | None) -> str:
    if shape is None:
        return ""
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _flagged_paths(findings: list[Finding]) -> set[str]:
    return {p for f in findings if f.severity != "info" for p in (*f.paths, *f.objects)}


#: findings a view shows in full (the rest: one line that counts them), errors first
MAX_FINDINGS = 20


def more_findings(rest: list[Finding]) -> str:
    """The line that stands for the findings a view leaves out: ``… and 980 more findings
    (980 warnings): %devices --all lists every one.``"""
    counts: dict[str, int] = {}
    for f in rest:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    kinds = ", ".join(f"{n:,} {sev}{'s' * (n != 1 and sev != 'info')}"
                      for sev, n in counts.items())
    return (f"… and {len(rest):,} more finding{'s' * (len(rest) != 1)} ({kinds}): "
            "%devices --all lists every one.")


class Table(NamedTuple):
    """The rows a view shows and the note under them (``None``: nothing worth saying)."""

    rows: list[Row]
    note: str | None


def _under(flagged: set[str]) -> set[str]:
    """Every path that is flagged or has a flagged path under it (``p`` with some flagged path
    starting ``p + "."``): a submodule's mark is one lookup, however many paths are flagged."""
    out = set(flagged)
    for f in flagged:
        i = f.find(".")
        while i >= 0:
            out.add(f[:i])
            i = f.find(".", i + 1)
    return out


def _optimizer_rows(o: ObjectRecord, flagged: set[str]) -> list[Row]:
    """One row per kind of state (``exp_avg``, ``step``...) and placement, not per parameter."""
    groups: dict[tuple[str, str, str], list[TensorRecord]] = {}
    for t in o.tensors:
        if t[2] == "state":  # NB: fields by index (role, ref, device, dtype): once per tensor
            key = (str(t[1][-1][1]), t[4], t[5])
            got = groups.get(key)
            if got is None:
                groups[key] = [t]
            else:
                got.append(t)
    return [Row(1, f"{o.name}.state[…][{key!r}]", f"state ×{len(ts)}", (dev,), (dt,), "",
                sum(map(_NBYTES, ts)), not flagged.isdisjoint(map(_PATH, ts)))
            for (key, dev, dt), ts in groups.items()]


_PATH, _NBYTES = attrgetter("path"), attrgetter("nbytes")


#: tensors a container shows one row each (more: runs of alike ones fold, then one row)
MAX_ITEMS = 20


def _summary_rows(o: ObjectRecord, flagged: set[str]) -> list[Row]:
    """Containers: one row per tensor, up to :data:`MAX_ITEMS`; more fold each run of tensors
    alike in role, device, dtype and flag into one row (``lst[0] … lst[29]``, ``tensor ×30``);
    past that many runs, one summary row for the rest."""
    shown = [t for t in o.tensors if t.role not in ("opt_param",)]
    if len(shown) > MAX_ITEMS:
        runs = [list(g) for _k, g in groupby(shown, key=lambda t: (
            t.role, t.device, t.dtype, t.path in flagged))]
        out = [_run_row(g, flagged) for g in runs[:MAX_ITEMS]]
        rest = [t for g in runs[MAX_ITEMS:] for t in g]
    else:
        out, rest = [_run_row([t], flagged) for t in shown], []
    if rest:
        out.append(Row(1, f"… {len(rest)} more", "", tuple(dict.fromkeys(t.device for t in rest)),
                       tuple(dict.fromkeys(t.dtype for t in rest)), "",
                       sum(t.nbytes for t in rest), any(t.path in flagged for t in rest)))
    return out


def _run_row(ts: list[TensorRecord], flagged: set[str]) -> Row:
    t = ts[0]
    if len(ts) == 1:
        return Row(1, t.path, t.role, (t.device,), (t.dtype,), shape_str(t.shape), t.nbytes,
                   t.path in flagged)
    shapes = {u.shape for u in ts}
    return Row(1, f"{t.path} … {ts[-1].path}", f"{t.role} ×{len(ts):,}", (t.device,),
               (t.dtype,), shape_str(shapes.pop()) if len(shapes) == 1 else f"{len(shapes)} shapes",
               sum(u.nbytes for u in ts), t.path in flagged)
