"""What a panel shows of a namespace: its window, one page of the top-level rows under the
user's sort and filter, ordered and filtered here over the snapshot's compact records.

NB: pure: no comm, no locks. A first frame of 1M loose tensors orders their names (a few
C-speed sorts) and encodes only the rows of one page; nothing is kept per row but the order
(8 bytes a row), and only while the panel reads that snapshot.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Container, Iterable, Iterator, Mapping
from itertools import compress, filterfalse
from math import prod
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from ..inspect.records import LooseHeader
from ._protocol import (
    DEFAULT_LIMIT,
    MAX_PAYLOAD_BYTES,
    SORT_KEYS,
    SortKey,
    WindowParams,
    WireFinding,
    WireObject,
    WireWindow,
    header_to_wire,
    plain_shape,
    row_to_wire,
)
from ._push import text_size

if TYPE_CHECKING:
    from ..inspect import ObjectRecord, Snapshot
    from ._push import Frame

_NONE: Mapping[str, Any] = MappingProxyType({})
Row: TypeAlias = "ObjectRecord | LooseHeader"  # what a page is encoded from
#: a window's ``names`` fit in this many bytes of JSON (a page is cut short before that)
NAMES_BYTES = MAX_PAYLOAD_BYTES // 8
#: rank of a severity, as the panel draws rows: errors first (sort by name only)
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
NO_FINDING = 3


class Spec(NamedTuple):
    """Which window a panel asked for (a ``rows`` request; the default on open)."""

    offset: int = 0
    limit: int = DEFAULT_LIMIT
    sort: SortKey = "name"
    ascending: bool = True
    filter: str = ""

    def with_params(self, p: WindowParams) -> Spec:
        """This spec with the fields ``p`` sets (validated by :mod:`._requests`)."""
        fields: dict[str, Any] = {k: v for k, v in p.items() if k in self._fields}
        return self._replace(**fields)

    def ordering(self) -> tuple[SortKey, bool, str]:
        """What the order depends on besides the snapshot and findings (not the page)."""
        return self.sort, self.ascending, self.filter.strip().lower()


class Order(NamedTuple):
    """Every matched object's name, in the window's order. NB: names, not positions: the
    namespace's own strings (8 bytes a row), and a page finds its rows at C speed."""

    names: list[str]
    total: int  # objects in the snapshot
    ranks: dict[str, int]  # by name: the worst severity under each flagged row (see ranks)


def ranks(findings: Iterable[WireFinding], names: Container[str]) -> dict[str, int]:
    """The worst severity of the findings drawn under each object's row, as the panel
    groups them: a finding goes under the first of its objects that has a row."""
    out: dict[str, int] = {}
    for f in findings:
        at = next((n for n in f["objects"] if n in names), None)
        r = SEVERITY_RANK.get(f["severity"], NO_FINDING)
        if at is not None and r < out.get(at, NO_FINDING):
            out[at] = r
    return out


def order(snap: Snapshot, findings: list[WireFinding], spec: Spec) -> Order:
    """The names of the objects ``spec``'s filter keeps, in its order: by the sort key (as
    the panel's column reads it), then by name; by name, rows with errors first, then
    warnings (as ``%devices`` lists them). NB: one stable sort per key (a descending one
    keeps names ascending among equals, as the panel's own comparison did); by name, sorts
    of the strings themselves, at C speed."""
    names = snap.names()
    sort, ascending, needle = spec.ordering()
    if needle:
        names = list(compress(names, matches(snap, needle)))
        kept = set(names)
    out = sorted(names)
    rank: dict[str, int] = {}
    if sort == "name":
        by_case(out, ascending)
        rank = ranks_in(snap, findings)
        if needle:
            rank = {n: r for n, r in rank.items() if n in kept}
        if rank:
            flagged = sorted(rank)
            by_case(flagged, ascending)
            flagged.sort(key=rank.__getitem__)
            out = flagged + list(filterfalse(rank.__contains__, out))
    else:
        values = dict(zip(snap.names(), sort_values(snap, sort), strict=True))
        out.sort(key=values.__getitem__, reverse=not ascending)
    return Order(out, len(snap), rank)


def ranks_in(snap: Snapshot, findings: list[WireFinding]) -> dict[str, int]:
    """:func:`ranks` of ``findings`` among the objects of ``snap``."""
    return ranks(findings, present(snap, {n for f in findings for n in f["objects"]}))


def by_case(names: list[str], ascending: bool) -> None:
    """Sort ``names`` (sorted, distinct) in place case-insensitively, ties by name ascending.
    NB: where no name has a capital (one lower() of them all, joined, says so), their own
    order is that order: 1M names need no second sort."""
    joined = "\0".join(names)
    if joined.lower() != joined:
        names.sort(key=str.lower, reverse=not ascending)
    elif not ascending:
        names.reverse()


def present(snap: Snapshot, names: set[str]) -> set[str]:
    """Which of ``names`` (a few) have a row in ``snap``; at C speed among compact rows."""
    return set(records_of(snap, sorted(names))) if names else set()


def sort_values(snap: Snapshot, key: str) -> list[Any]:
    """Each object's value under the sort ``key``, in namespace order, as the panel's column
    compares it: bytes, the type (lower case), devices or dtypes joined, a tensor's number of
    elements (-1 for anything else)."""
    assert key in SORT_KEYS, key
    out: list[Any] = []
    for o in snap.in_order():
        if isinstance(o, LooseHeader):
            _, device, dtype, shape, nbytes, _ = o
            out.append(nbytes if key == "bytes" else "tensor" if key == "kind"
                       else device if key == "device" else dtype if key == "dtype"
                       else prod(plain_shape(shape)))
            continue
        out.append(o.nbytes if key == "bytes" else o.type_name.lower() if key == "kind"
                   else ",".join(o.devices) if key == "device"
                   else ",".join(o.dtypes) if key == "dtype"
                   else prod(plain_shape(o.tensors[0].shape)) if o.kind == "tensor" else -1)
    return out


def shape_str(shape: Iterable[int]) -> str:
    """A shape as the panel writes it (``(2, 3)``, ``(4,)``)."""
    dims = list(shape)
    return "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"


def matches(snap: Snapshot, needle: str) -> list[bool]:
    """Per object in namespace order, whether the panel's filter ``needle`` (lower case)
    finds it: in what its row shows (name, kind, devices, dtypes, shape) or in a row under it
    (a submodule's path and type, a tensor's path, role, device, dtype and shape)."""
    return [needle in " ".join(_texts(o)).lower() for o in snap.in_order()]


def _texts(o: ObjectRecord | LooseHeader) -> Iterator[str]:
    if isinstance(o, LooseHeader):
        yield from (o.name, "Tensor", o.device, o.dtype, shape_str(o.shape))
        return
    yield from (o.name, "Tensor" if o.kind == "tensor" else o.type_name, *o.devices,
                *o.dtypes)
    if o.kind == "tensor":
        yield shape_str(o.tensors[0].shape)
    for m in o.modules:
        yield from (m.path, m.type_name + (" (not moved by .to())" if m.trapped else ""),
                    *m.devices, *m.dtypes)
    for t in o.tensors:
        if t.role == "grad" and o.kind == "module":
            continue  # NB: a module's rows show its parameters and buffers, not their grads
        yield from (t.path, t.role, t.device, t.dtype, shape_str(t.shape))
        if t.role == "opt_param" and t.owner:
            yield t.owner


def page(snap: Snapshot, ordered: Order, spec: Spec,
         cache: dict[str, tuple[Row, WireObject]],
         regraded: Mapping[str, ObjectRecord] = _NONE,
         since: frozenset[str] | None = None) -> tuple[dict[str, WireObject], WireWindow]:
    """The rows of ``spec``'s page of ``ordered``, by name in window order, and the window
    that describes them. ``cache`` (name -> the record and the row last encoded for it) is
    read and refilled: a row whose record is unchanged is the very same dict, so the panel
    is sent nothing for it; so is one whose record only had its grads replaced (``regraded``:
    name -> the record it replaced; a row carries no storage). ``since``: the only names
    whose records may differ from those the cache was filled from (None: any may); the
    others' rows are taken from the cache without reading their records (a cell that flags
    one name moves the page by a row: one record read, not a page of them)."""
    names = fitting(ordered.names[spec.offset:spec.offset + spec.limit])
    kept = {n: cache[n] for n in names if n in cache}
    cache.clear()
    cache.update(kept)
    read = names if since is None else [n for n in names if n not in kept or n in since]
    records = records_of(snap, read)
    rows = {name: kept[name][1] if name not in records else encode(records[name], cache,
                                                                    regraded)
            for name in names}
    window = WireWindow(offset=spec.offset, limit=spec.limit, sort=spec.sort,
                        ascending=spec.ascending, filter=spec.filter, names=names,
                        matched=len(ordered.names), total=ordered.total)
    return rows, window


def records_of(snap: Snapshot, names: list[str]) -> dict[str, Row]:
    """The records of ``names`` (a page's), found at C speed among the compact rows; a
    compact row's header in place of its record."""
    if not names:
        return {}
    wanted = set(names)
    positions = snap.loose_named(wanted)
    positions += [p for p, o in snap.composites() if o.name in wanted]
    positions.sort()
    return {o.name: o for o in snap.rows_at(positions)}


def fitting(names: list[str]) -> list[str]:
    """The first of ``names`` whose list fits ``NAMES_BYTES``. NB: every message of a page
    carries its names; only names hundreds of characters long ever cut a page short (the
    panel asks for the next one from where it ends)."""
    if 6 * sum(map(len, names)) + 4 * len(names) <= NAMES_BYTES:
        return names  # NB: most pages: no character takes over 6 bytes escaped
    used = 2
    for i, n in enumerate(names):
        used += text_size(n) + 2
        if used > NAMES_BYTES and i > 0:
            return names[:i]
    return names


Held = tuple["Snapshot", list[WireFinding], tuple[str, bool, str], Order]


class Pager:
    """One panel's window over successive frames: the order of the last snapshot read, kept
    while it still holds, and the page last sent, of which a frame re-encodes only the rows
    whose records changed (see :func:`page`)."""

    def __init__(self) -> None:
        self.held: Held | None = None
        self.encoded: dict[str, tuple[Row, WireObject]] = {}
        self.last: tuple[Frame, Spec, tuple[dict[str, WireObject], WireWindow]] | None = None

    def page(self, frame: Frame, spec: Spec) -> tuple[dict[str, WireObject], WireWindow]:
        """The rows of ``spec``'s window in ``frame``, and the window. NB: the very same
        objects while nothing on the page changed (a cell that changed nothing costs nothing
        here, and the panel is sent nothing)."""
        last = self.last
        if last is not None and last[0] is frame and last[1] == spec:
            return last[2]
        snap = frame.snapshot
        if snap is None:
            return {}, empty(spec)
        key = spec.ordering()
        held = self.held
        kept = held is not None and held[2] == key and self._holds(held, frame, key)
        if kept and held is not None:
            ordered = held[3]
        else:
            moved = self._moved(held, frame, key) if held is not None else None
            ordered = moved if moved is not None else order(snap, frame.findings, spec)
        self.held = (snap, frame.findings, key, ordered)
        names = fitting(ordered.names[spec.offset:spec.offset + spec.limit])
        if last is not None and last[1] == spec and frame.changed is not None \
                and frame.follows(last[0].snapshot) and names == last[2][1]["names"]:
            out = self._patched(snap, frame, last[2], ordered)  # NB: the same rows, in order
        else:
            out = page(snap, ordered, spec, self.encoded, frame.regraded,
                       self._since(last[0] if last is not None else None, frame))
        self.last = (frame, spec, out)
        return out

    @staticmethod
    def _since(encoded_at: Frame | None, frame: Frame) -> frozenset[str] | None:
        """The names whose records in ``frame`` may differ from those the cache of encoded
        rows was filled from (``encoded_at``, the last page's frame: every row it keeps was
        encoded or checked then); None: any may."""
        if encoded_at is frame:
            return frozenset()
        if encoded_at is None or frame.changed is None or not frame.follows(
                encoded_at.snapshot):
            return None
        return frame.changed

    def _patched(self, snap: Snapshot, frame: Frame,
                 last: tuple[dict[str, WireObject], WireWindow], ordered: Order,
                 ) -> tuple[dict[str, WireObject], WireWindow]:
        """The last page (the same names in the same order), its rows whose records changed
        encoded again, its counts brought up to date."""
        rows, window = last
        assert frame.changed is not None
        if window["matched"] != len(ordered.names) or window["total"] != ordered.total:
            window = window.copy()
            window["matched"], window["total"] = len(ordered.names), ordered.total
        stale = [n for n in window["names"] if n in frame.changed]
        if not stale:
            return rows, window
        records = records_of(snap, stale)
        out = dict(rows)
        for name in stale:
            out[name] = encode(records[name], self.encoded, frame.regraded)
        return out, window

    @staticmethod
    def _moved(held: Held, frame: Frame, key: tuple[str, bool, str]) -> Order | None:
        """By name, ascending, without a filter: the order of ``held`` with the names gone
        taken out, and the new ones and those flagged otherwise now put where they belong
        (a cell that rebinds k names costs k insertions, not a sort); None where it cannot
        be (sorted otherwise, or most names moved: sort them all again)."""
        snap, findings, _, ordered = held
        now = frame.snapshot
        if key != ("name", True, "") or not frame.follows(snap) or frame.changed is None \
                or now is None:
            return None
        changed = set(frame.changed)
        # NB: as many names as before and none gone: none is new
        added = set() if len(now) == ordered.total and not frame.removed \
            else changed - present(snap, changed)
        rank = ordered.ranks if frame.findings is findings else ranks_in(now, frame.findings)
        flags = {n for n in rank.keys() | ordered.ranks.keys()
                 if rank.get(n) != ordered.ranks.get(n)}
        moved = (added | flags) - frame.removed
        if len(moved) > max(16, len(ordered.names) // 64):
            return None  # NB: an insertion moves the list's tail: past this, one sort is less
        drop = (frame.removed | flags) - added
        out = list(filterfalse(drop.__contains__, ordered.names)) if drop else \
            list(ordered.names)
        for name in sorted(moved):
            insort(out, name, key=lambda n: (rank.get(n, NO_FINDING), n.lower(), n))
        return Order(out, len(now), rank)

    @staticmethod
    def _holds(held: Held, frame: Frame, key: tuple[str, bool, str]) -> bool:
        """Whether the order of ``held`` is ``frame``'s too: the same snapshot and findings;
        or the next snapshot, in which no record changed (any sort or filter), or, by name
        without a filter, only records of the same names (none gone, none new); by name, with
        the same rows flagged. A cell that rebinds names orders nothing again."""
        snap, findings, _, ordered = held
        if frame.snapshot is snap and frame.findings is findings:
            return True
        if not frame.follows(snap) or frame.removed or frame.changed is None \
                or frame.snapshot is None:
            return False
        changed = frame.changed
        if changed and (key[0] != "name" or key[2] or (
                len(frame.snapshot) != ordered.total  # NB: as many names, none gone: none new
                and present(snap, set(changed)) != changed)):
            return False
        return (key[0] != "name" or frame.findings is findings
                or ranks_in(frame.snapshot, frame.findings) == ordered.ranks)


def encode(rec: Row, cache: dict[str, tuple[Row, WireObject]],
           regraded: Mapping[str, ObjectRecord]) -> WireObject:
    """``rec``'s row: the one in ``cache`` where its record is unchanged or only had its
    grads replaced (``regraded``: name -> the record it replaced; a row carries no storage),
    else encoded; ``cache`` keeps it."""
    name = rec.name
    hit = cache.get(name)
    if hit is None or (hit[0] is not rec and regraded.get(name) is not hit[0] and hit[0] != rec):
        hit = (rec, header_to_wire(rec) if isinstance(rec, LooseHeader) else row_to_wire(rec))
    cache[name] = (rec, hit[1])
    return hit[1]


def empty(spec: Spec) -> WireWindow:
    """The window of a namespace without torch (no snapshot)."""
    return WireWindow(offset=spec.offset, limit=spec.limit, sort=spec.sort,
                      ascending=spec.ascending, filter=spec.filter, names=[], matched=0,
                      total=0)
