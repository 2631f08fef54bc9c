"""The default ``%devices`` table, folded to fit a screen: at most :data:`MAX_ROWS` rows whatever
the model or namespace size, plus the rows that errors and warnings keep open.

A pure function of a snapshot and its findings (:func:`fold`). Submodules alike in everything
below them (type, devices, dtypes, tensors, memory and flags, subtree by subtree) and numbered in
a run fold into one row, ``model.layers.0-31  Layer ×32``; a row open under such a run stands
for every member (``model.layers.0-31.mlp  MLP ×32``). A row with an error or warning, and the
path to it, is always open; beyond that a mixed (split) module opens level by level while the
table stays within :data:`MAX_ROWS`, and a uniform one while it stays within
:data:`OVERVIEW_ROWS`. A namespace of more names than that folds runs of alike loose tensors
(``t0 … t9999  Tensor ×10,000``); past that many runs it shows the first, flagged ones first,
and one row for the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from ..inspect import device_key
from ..inspect._runs import LooseRun, loose_runs
from ..inspect.records import LooseHeader
from ._rows import Row, Table, _flagged_paths, _optimizer_rows, _summary_rows, _under, shape_str

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import ModuleRecord, ObjectRecord, Snapshot, TensorRecord


#: rows the default table shows at most (a laptop screen of text, the table's header aside),
#: not counting the rows an error or a warning keeps open; NB: docs/usage.md states it
MAX_ROWS = 40
#: rows up to which modules open where nothing is split or flagged, to show their structure
OVERVIEW_ROWS = 20


class _Node:
    """A row and, until opened, the rows under it (a list, or a function that makes it)."""

    __slots__ = ("_kids", "must", "open", "row", "split")

    def __init__(self, row: Row, kids: Sequence[_Node] | Callable[[], list[_Node]] = (),
                 must: bool = False) -> None:
        self.row, self._kids, self.must, self.open = row, kids, must, False
        self.split = len(row.devices) > 1 or len(row.dtypes) > 1

    def kids(self) -> Sequence[_Node]:
        got = self._kids
        if callable(got):
            got = self._kids = got()
        return got


def rows(snap: Snapshot, findings: list[Finding], *, show_all: bool = False) -> list[Row]:
    """The table's rows: every one (``show_all``), else folded (:func:`table`)."""
    return table(snap, findings, show_all=show_all).rows


def table(snap: Snapshot, findings: list[Finding], *, show_all: bool = False) -> Table:
    """The rows a view shows and the note under them."""
    if not show_all:
        return fold(snap, findings)
    flagged = _flagged_paths(findings)
    out: list[Row] = []
    for o in snap.objects:
        shape = shape_str(o.tensors[0].shape) if o.kind == "tensor" else ""
        out.append(Row(0, o.name, o.type_name if o.kind != "tensor" else "Tensor", o.devices,
                       o.dtypes, shape, o.nbytes, o.name in flagged))
        out += [Row(1, t.path, t.role, (t.device,), (t.dtype,), shape_str(t.shape), t.nbytes,
                    t.path in flagged) for t in o.tensors[int(o.kind == "tensor"):]]
    return Table(out, None)


def fold(snap: Snapshot, findings: list[Finding]) -> Table:
    """The folded table of ``snap``: see the module's docstring."""
    flagged = _flagged_paths(findings)
    every = len(snap) + sum(len(o.tensors) - (o.kind == "tensor")
                            for _p, o in snap.composites())  # NB: the rows --all shows
    under = _under(flagged)
    below = (under - flagged) | {p for p in flagged if _has_below(p, flagged)}
    tops, cut = _names(snap, flagged, under, below)
    count = len(tops) + (cut is not None) + sum(map(_force, tops))
    count = _open(tops, count, MAX_ROWS, lambda n: n.split or n.row.level == 0)
    _open(tops, count, OVERVIEW_ROWS, lambda n: True)
    out: list[Row] = []
    for top in tops:
        _flatten(top, out)
    if cut is not None:
        out.append(cut)
    note = None
    if cut is not None or (every > len(out) and every > MAX_ROWS):
        note = (f"(folded to {len(out)} rows from {every:,}: alike rows as one, errors and "
                "warnings open; %devices --all shows every row"
                + (", %devices NAME … only those names" if cut is not None else "") + ".)")
    return Table(out, note)


def _open(tops: list[_Node], count: int, limit: int, pick: Callable[[_Node], bool]) -> int:
    """Open the nodes ``pick`` chooses, level by level, one object's level whole or not at
    all, while the table stays within ``limit`` rows; the rows it has then."""
    level = 0
    while True:
        layer = [list(_at(top, level)) for top in tops]
        if not any(layer):
            return count
        for nodes in layer:
            at = [n for n in nodes if not n.open and pick(n)]
            cost = sum(len(n.kids()) for n in at)
            if cost and count + cost <= limit:
                for n in at:
                    n.open = True
                count += cost
        level += 1


def _has_below(path: str, flagged: set[str]) -> bool:
    """NB: only for paths that are flagged themselves (rare): the rest of ``under`` is below."""
    return any(f.startswith((path + ".", path + "[")) for f in flagged if f != path)


def _force(n: _Node) -> int:
    """Open ``n`` and, under it, every row with a flagged path below it; the rows added."""
    if not n.must:
        return 0
    kids = n.kids()
    if not kids:
        return 0
    n.open = True
    return len(kids) + sum(map(_force, kids))


def _at(n: _Node, level: int) -> Iterator[_Node]:
    if n.row.level == level:
        yield n
    elif n.open and n.row.level < level:
        for k in n.kids():
            yield from _at(k, level)


def _flatten(n: _Node, out: list[Row]) -> None:
    out.append(n.row)
    if n.open:
        for k in n.kids():
            _flatten(k, out)


# --- the namespace's names -----------------------------------------------------------------

def _names(snap: Snapshot, flagged: set[str], under: set[str],
           below: set[str]) -> tuple[list[_Node], Row | None]:
    """One node per name, or (past :data:`MAX_ROWS` names) per run of alike loose tensors;
    past that many runs, the first, flagged ones first, and one row for the rest.
    NB: a long namespace is read from the columns (:func:`loose_runs`): no record per name."""
    if len(snap) <= MAX_ROWS:
        return [_top(o, flagged, under, below) for o in snap.in_order()], None
    runs = loose_runs(snap, flagged)
    entries: list[tuple[int, LooseRun | ObjectRecord]] = sorted(
        [*((r.position, r) for r in runs), *snap.composites()], key=itemgetter(0))
    if len(entries) <= MAX_ROWS:
        return [_entry(e, flagged, under, below) for _p, e in entries], None
    marked = [i for i, (_p, e) in enumerate(entries) if _name(e) in flagged]
    keep = set(marked[:MAX_ROWS - 1])
    i = 0
    while len(keep) < MAX_ROWS - 1:
        keep.add(i)
        i += 1
    rest = [e for i, (_p, e) in enumerate(entries) if i not in keep]
    devices: set[str] = set()
    dtypes: set[str] = set()
    for e in rest:
        devices.update((e.device,) if isinstance(e, LooseRun) else e.devices)
        dtypes.update((e.dtype,) if isinstance(e, LooseRun) else e.dtypes)
    n = sum(e.length if isinstance(e, LooseRun) else 1 for e in rest)
    cut = Row(0, f"… {n:,} more name{'s' * (n != 1)}", "", tuple(sorted(devices, key=device_key)),
              tuple(sorted(dtypes)), "", sum(e.nbytes for e in rest),
              any(_name(e) in flagged for e in rest))
    return [_entry(entries[i][1], flagged, under, below) for i in sorted(keep)], cut


def _name(e: LooseRun | ObjectRecord) -> str:
    return e.first if isinstance(e, LooseRun) else e.name


def _entry(e: LooseRun | ObjectRecord, flagged: set[str], under: set[str],
           below: set[str]) -> _Node:
    if not isinstance(e, LooseRun):
        return _top(e, flagged, under, below)
    shapes = e.shapes
    shape = shape_str(tuple(next(iter(shapes)))) if len(shapes) == 1 else f"{len(shapes)} shapes"
    if e.length == 1:
        return _Node(Row(0, e.first, "Tensor", (e.device,), (e.dtype,), shape, e.nbytes,
                         e.first in flagged))
    return _Node(Row(0, f"{e.first} … {e.last}", f"Tensor ×{e.length:,}", (e.device,),
                     (e.dtype,), shape, e.nbytes, False))  # NB: a flagged name is a run alone


def _top(o: ObjectRecord | LooseHeader, flagged: set[str], under: set[str],
         below: set[str]) -> _Node:
    if isinstance(o, LooseHeader):
        return _Node(Row(0, o.name, "Tensor", (o.device,), (o.dtype,), shape_str(tuple(o.shape)),
                         o.nbytes, o.name in flagged))
    tensor = o.kind == "tensor"
    row = Row(0, o.name, "Tensor" if tensor else o.type_name, o.devices, o.dtypes,
              shape_str(o.tensors[0].shape) if tensor else "", o.nbytes, o.name in flagged)
    if tensor:
        return _Node(row)
    if o.kind == "module" and o.modules:
        tree = _Tree(o, flagged, under, below)
        root = o.modules[0]
        return _Node(row, lambda: tree.children(root, o.name, 0, 1),
                     must=o.name in below or root.path in below)
    leaves = _optimizer_rows(o, flagged) if o.kind == "optimizer" else _summary_rows(o, flagged)
    return _Node(row, [_Node(x) for x in leaves], must=any(x.flagged for x in leaves))


# --- a module's tree -----------------------------------------------------------------------

_MAX_DIGITS = 10


def _index(suffix: str) -> int | None:
    """``.7`` -> 7. NB: ASCII digits only ("²" is a digit int() refuses), few of them (int()
    refuses thousands: a module may be named so); "07" is no index torch makes."""
    k = suffix[1:]
    if (suffix[:1] == "." and 0 < len(k) < _MAX_DIGITS and k.isascii() and k.isdigit()
            and k == str(int(k))):
        return int(k)
    return None


class _Tree:
    """One module object's submodules: children by path and each subtree's signature (equal
    signatures: alike in every row a view could open below)."""

    def __init__(self, o: ObjectRecord, flagged: set[str], under: set[str],
                 below: set[str]) -> None:
        self.o, self.flagged, self.under, self.below = o, flagged, under, below
        by_path: dict[str, ModuleRecord] = {}  # NB: the first module of each path, as a scan finds
        for m in o.modules:
            by_path.setdefault(m.path, m)
        root = o.modules[0].path
        self.kids: dict[str, list[ModuleRecord]] = {p: [] for p in by_path}
        for m in o.modules[1:]:
            if by_path[m.path] is m:
                self.kids[self._parent(m.path, by_path, root)].append(m)
        self._sigs: dict[str, int] = {}
        self._keys: dict[tuple[object, ...], int] = {}
        self._direct: dict[str, list[TensorRecord]] | None = None

    @staticmethod
    def _parent(path: str, by_path: dict[str, ModuleRecord], root: str) -> str:
        p = path
        while True:
            i = max(p.rfind("."), p.rfind("["))
            if i <= 0:
                return root
            p = p[:i]
            if p in by_path:
                return p

    def sig(self, m: ModuleRecord) -> int:
        got = self._sigs.get(m.path)
        if got is None:
            key = (m.type_name, m.devices, m.dtypes, m.n_tensors, m.nbytes, m.path in self.under,
                   tuple((c.path[len(m.path):], self.sig(c)) for c in self.kids[m.path]))
            got = self._sigs[m.path] = self._keys.setdefault(key, len(self._keys))
        return got

    def groups(self, m: ModuleRecord) -> list[list[ModuleRecord]]:
        """``m``'s children, each run of alike numbered siblings (``.0``, ``.1``…) as one."""
        out: list[list[ModuleRecord]] = []
        last: int | None = None
        for c in self.kids[m.path]:
            k = _index(c.path[len(m.path):])
            if (out and k is not None and last is not None and k == last + 1
                    and self.sig(c) == self.sig(out[-1][0])):
                out[-1].append(c)
            else:
                out.append([c])
            last = k
        return out

    def flagged_tensors(self, m: ModuleRecord) -> list[TensorRecord]:
        """``m``'s own flagged tensors where only some of them are flagged: the rows that show
        which (all of them flagged: the module's row says it)."""
        if self._direct is None:
            self._direct = {}
            for t in self.o.tensors:
                if t.role in ("parameter", "buffer", "attribute", "trapped"):
                    self._direct.setdefault(t.owner, []).append(t)
        own = self._direct.get(m.path, [])
        hit = [t for t in own if t.path in self.flagged]
        return hit if len(hit) < len(own) else []

    def node(self, members: list[ModuleRecord], name: str, level: int, mult: int) -> _Node:
        m = members[0]
        many = mult > 1
        row = Row(level, name, f"{m.type_name} ×{mult}" if many else m.type_name, m.devices,
                  m.dtypes, f"{m.n_tensors * mult:,} tensors" if many and m.n_tensors else "",
                  m.nbytes * mult, m.path in self.under)
        return _Node(row, lambda: self.children(m, name, level, mult), must=m.path in self.below)

    def children(self, m: ModuleRecord, name: str, level: int, mult: int) -> list[_Node]:
        out = [_Node(Row(level + 1, name + t.path[len(m.path):], t.role, (t.device,),
                         (t.dtype,), shape_str(t.shape), t.nbytes * mult, True))
               for t in (self.flagged_tensors(m) if m.path in self.below else ())]
        for g in self.groups(m):
            suffix = g[0].path[len(m.path):]
            k = _index(suffix)
            if len(g) > 1 and k is not None:
                suffix = f".{k}-{k + len(g) - 1}"
            out.append(self.node(g, name + suffix, level + 1, mult * len(g)))
        return out

