"""Table rows shared by the text, HTML and widget views: what to show, not how.

Modules collapse to one row per top-level submodule, and open deeper only where a subtree is
split across devices or dtypes, so a 200-layer model stays readable and its split stays visible.
Numbered siblings alike in every column show as one row (``model.0-63``, ``Linear ×64``), as
torch prints a ``ModuleList``; one that differs (moved, cast, flagged, split) shows alone.
A namespace of more than :data:`MAX_NAMES` names shows that many, flagged ones first, and one
row for the rest, as pandas shows a long frame: ``--all`` lists every one.
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import ModuleRecord, ObjectRecord, Snapshot, TensorRecord

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


#: names a table shows (the rest: one row); NB: the %devices benchmark's 60 models and 30
#: optimizers all show. 100k loose tensors made 100k lines and 19 MB of HTML kept in the notebook
MAX_NAMES = 100
#: findings a view shows in full (the rest: one line that counts them), errors first
MAX_FINDINGS = 20


def omitted(snap: Snapshot, show_all: bool = False) -> int:
    """How many names :func:`rows` leaves out of the table (one summary row stands for them)."""
    return 0 if show_all else max(0, len(snap) - MAX_NAMES)


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


def omitted_line(snap: Snapshot, show_all: bool = False) -> str | None:
    """The note under a table that leaves names out (:func:`omitted`), else None."""
    if not omitted(snap, show_all):
        return None
    return (f"({MAX_NAMES} of {len(snap):,} names shown, flagged ones first: %devices --all "
            "lists every one, %devices NAME … only those.)")


def rows(snap: Snapshot, findings: list[Finding], *, show_all: bool = False) -> list[Row]:
    flagged = _flagged_paths(findings)
    under: set[str] | None = None
    out: list[Row] = []
    shown, rest = ((snap.objects, None) if not omitted(snap, show_all)
                   else _pick(snap, flagged))
    for o in shown:
        shape = shape_str(o.tensors[0].shape) if o.kind == "tensor" else ""
        out.append(Row(0, o.name, o.type_name if o.kind != "tensor" else "Tensor", o.devices,
                       o.dtypes, shape, o.nbytes, o.name in flagged))
        if show_all:
            out += [Row(1, t.path, t.role, (t.device,), (t.dtype,), shape_str(t.shape), t.nbytes,
                        t.path in flagged) for t in o.tensors[int(o.kind == "tensor"):]]
        elif o.kind == "module":
            if under is None:
                under = _under(flagged)
            out += _module_rows(o, under)
        elif o.kind == "optimizer":
            out += _optimizer_rows(o, flagged)
        elif o.kind != "tensor":
            out += _summary_rows(o, flagged)
    if rest is not None:
        out.append(rest)
    return out


def _pick(snap: Snapshot, flagged: set[str]) -> tuple[list[ObjectRecord], Row]:
    """The records of the :data:`MAX_NAMES` names a long table shows (flagged names first,
    then the first others, all in namespace order) and the one row of every other name.
    NB: records are built for the shown names only; the rest are summed from the columns."""
    names = snap.names()
    marked = list(compress(range(len(names)), map(flagged.__contains__, names)))
    keep = dict.fromkeys(marked[:MAX_NAMES])
    p = 0
    while len(keep) < MAX_NAMES:
        keep.setdefault(p)
        p += 1
    devices, dtypes, nbytes = snap.summary(keep)
    n = len(names) - MAX_NAMES
    return (snap.records_at(sorted(keep)),
            Row(0, f"… {n:,} more name{'s' * (n != 1)}", "", devices, dtypes, "", nbytes,
                len(marked) > MAX_NAMES))


def _split(m: ModuleRecord) -> bool:
    return len(m.devices) > 1 or len(m.dtypes) > 1


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


def _module_rows(o: ObjectRecord, under: set[str]) -> list[Row]:
    out: list[Row] = []
    by_path: dict[str, ModuleRecord] = {}  # NB: the first module of each path, as a scan finds
    for p in o.modules:
        by_path.setdefault(p.path, p)
    base = o.name.count(".")
    for m in o.modules[1:]:
        path, _ref, type_name, devices, dtypes, _n, nbytes, depth, trapped, _hf = m
        top = depth == 1 or (trapped and not any(
            p.trapped and path.startswith(p.path + ".") for p in o.modules if p is not m))
        if not top:  # NB: only then does the parent matter
            parent_rec = by_path.get(path.rsplit(".", 1)[0] if "." in path else o.name)
        if top or (parent_rec is not None and _split(parent_rec)):
            out.append(_new(Row, (path.count(".") - base, path, type_name, devices, dtypes, "",
                                  nbytes, path in under)))
    return _runs(out) if len(out) > 1 else out


_MAX_DIGITS = 10


def _runs(rs: list[Row]) -> list[Row]:
    """``rs`` with each run of numbered siblings (``m.0``, ``m.1``...) that agree in level,
    kind, device, dtype, memory and flag as one row: ``m.0-63``, ``Linear ×64``, their memory
    summed.

    NB: consecutive rows only, named exactly ``parent.k``, ``parent.k+1``...: a row whose
    subtree opens below it is followed by deeper rows, which end its run."""
    out: list[Row] = []
    i, n = 0, len(rs)
    while i < n:
        r = rs[i]
        j = i + 1
        parent, _, first = r[1].rpartition(".")
        # NB: ASCII digits only ("²" is a digit int() refuses), few of them (int() refuses
        # thousands: a module may be named so); "07" is no index torch makes
        if (len(first) < _MAX_DIGITS and first.isascii() and first.isdigit()
                and first == str(int(first))):
            k = int(first)
            same = r[:1], r[2:5], r[6:]
            while (j < n and (rs[j][:1], rs[j][2:5], rs[j][6:]) == same
                   and rs[j][1] == f"{parent}.{k + j - i}"):
                j += 1
        if j - i > 1:
            out.append(_new(Row, (r[0], f"{parent}.{first}-{k + j - i - 1}",
                                  f"{r[2]} ×{j - i}", r[3], r[4], "", r[6] * (j - i), r[7])))
        else:
            out.append(r)
        i = j
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
_new = tuple.__new__


def _summary_rows(o: ObjectRecord, flagged: set[str]) -> list[Row]:
    """Containers and optimizers: one row per tensor, up to 20, then one summary row."""
    shown = [t for t in o.tensors if t.role not in ("opt_param",)]
    out = [Row(1, t.path, t.role, (t.device,), (t.dtype,), shape_str(t.shape), t.nbytes,
               t.path in flagged) for t in shown[:20]]
    if len(shown) > 20:
        rest = shown[20:]
        out.append(Row(1, f"… {len(rest)} more", "", tuple(dict.fromkeys(t.device for t in rest)),
                       tuple(dict.fromkeys(t.dtype for t in rest)), "",
                       sum(t.nbytes for t in rest), any(t.path in flagged for t in rest)))
    return out
