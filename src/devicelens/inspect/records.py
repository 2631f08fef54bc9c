"""The frozen records a snapshot is made of: plain, immutable data, safe to keep and to send.

NB: records are ``NamedTuple``s rather than frozen dataclasses: just as immutable, and several
times cheaper to build. A :class:`Snapshot` keeps a name bound directly to a plain tensor (the
bulk of a big namespace) as a compact row and builds its :class:`ObjectRecord` only when read.
"""

from __future__ import annotations

import dataclasses
from array import array
from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, repeat
from math import prod
from operator import add, eq, is_, itemgetter, mul, not_
from typing import Any, NamedTuple

from ._count import Totals
from ._names import _DEVICE_NAMES as _DEVICE_NAMES
from ._names import _DTYPE_INFO as _DTYPE_INFO
from ._names import DeviceTotal as DeviceTotal
from ._names import device_key as device_key
from ._names import device_name as device_name
from ._names import dtype_info as dtype_info
from ._tree import Ref, Step


class TensorRecord(NamedTuple):
    """One tensor reachable from the namespace."""

    path: str  # what users read: model.encoder.layers.3.attn.in_proj_weight, batch['x']
    ref: Ref  # how to find it again (moves) and how to write it in code (fixes)
    role: str  # tensor | parameter | buffer | attribute | trapped | grad | opt_param | state
    owner: str  # module path for params/buffers/traps; parameter path for optimizer state
    device: str
    dtype: str
    shape: tuple[int, ...]
    numel: int
    nbytes: int
    requires_grad: bool
    is_leaf: bool
    layout: str
    flavor: str  # dense | sparse | nested | quantized | fake | dtensor | subclass | opaque
    storage: int  # identity of the underlying storage (a view shares its base's)


class ModuleRecord(NamedTuple):
    """One submodule, aggregated over its whole subtree."""

    path: str
    ref: Ref
    type_name: str
    devices: tuple[str, ...]
    dtypes: tuple[str, ...]
    n_tensors: int
    nbytes: int
    depth: int
    trapped: bool  # held in a plain list/dict attribute: Module.to() will not move it
    # NB: what places the module's inputs where its tensors are: "accelerate" (its dispatch
    # hook), "hook" (a forward pre-hook of the user's code: unsloth's offloaded embedding sends
    # the ids to its weight's device), '' neither (see :func:`._walk.placed_by`)
    hf_hook: str


class ObjectRecord(NamedTuple):
    """One name in the namespace that holds tensors (a tensor, module, optimizer or container)."""

    name: str
    kind: str  # tensor | module | optimizer | container
    type_name: str
    tensors: tuple[TensorRecord, ...]
    modules: tuple[ModuleRecord, ...] = ()
    devices: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    nbytes: int = 0
    truncated: bool = False
    wrapper: str = ""  # DataParallel | DistributedDataParallel
    device_ids: tuple[int, ...] = ()
    output_device: int | None = None
    dispatch: str = ""  # why a multi-device layout is intentional: accelerate | dtensor | fsdp |
    #                     hooks (a forward pre-hook of the user's code places a part's inputs)
    frozen: bool = False  # immutable container (tuple, namedtuple, frozen dataclass)


def owned_grads(o: ObjectRecord) -> list[int]:
    """Where ``o``'s grads of its parameters, buffers and optimizer parameters are among its
    tensors: the records :func:`grads_moved` may move. NB: the same places in every record
    :func:`grads_moved` makes of ``o`` (only storages change), so a caller keeps them."""
    ts = o.tensors
    owners = {t.path for t in ts if t.role in _TABLE_ROLES}
    return [i for i, t in enumerate(ts) if t.role == "grad" and t.owner in owners]


def grads_moved(o: ObjectRecord, moved: dict[int, int],
                at: list[int] | None = None, olds: list[int] | None = None) -> ObjectRecord:
    """``o`` with its parameters' grads at storages ``moved`` (old -> new) recorded at their new
    storages: what a walk gives after those grads were replaced by tensors with the very same
    headers (a plain grad's storage is its own identity). ``o`` itself where none moved.
    NB: only the grads of parameters and buffers (the tensors whose grads were compared): an
    attribute's grad that is the old grad itself still is. ``at``: :func:`owned_grads` of
    ``o``, where the caller kept it: then only those records are read (after every training
    step, a model of 2,000 parameters with Adam holds 14,000 records, 4,000 of them grads).
    ``olds``: extended with the old storage of each record moved, in order (what the totals
    rename, :meth:`._totals.RunningTotals.rekeyed`)."""
    ts = o.tensors
    if at is None:
        at = owned_grads(o)
    # NB: each pass at C speed: a training step moves every grad (4,000 records for a model of
    # 2,000 parameters with Adam)
    storages = list(map(_LAST, map(ts.__getitem__, at)))
    hit = list(map(moved.__contains__, storages))
    if True not in hit:
        return o
    hits = list(compress(at, hit))
    gone = list(compress(storages, hit))
    if olds is not None:
        olds += gone
    news = map(moved.__getitem__, gone)
    recs = map(_new, repeat(TensorRecord), map(add, map(_HEAD, map(ts.__getitem__, hits)),
                                               zip(news)))
    out = list(ts)
    deque(map(out.__setitem__, hits, recs), maxlen=0)
    return o._replace(tensors=tuple(out))


_FEW_NAMES = 4  # NB: see Snapshot.loose_named
_TABLE_ROLES = frozenset({"parameter", "buffer", "opt_param"})
_LAST, _HEAD = itemgetter(-1), itemgetter(slice(0, -1))  # of a TensorRecord: storage, the rest


class DeviceInfo(NamedTuple):
    name: str  # cpu, cuda:0, mps, xpu:0, meta
    kind: str
    free_bytes: int | None  # known only where reading it cannot initialise anything
    total_bytes: int | None


# --- compact rows ---------------------------------------------------------------------------

class LooseHeader(NamedTuple):
    """What a compact row's record says, without the record (:meth:`Loose.headers`)."""

    name: str
    device: str
    dtype: str
    shape: Any  # a torch.Size
    nbytes: int
    storage: int


_INFO_NAME, _INFO_SIZE = itemgetter(0), itemgetter(1)  # of a dtype's info (name, size, quantized)


def id_column(values: Iterable[Any]) -> array[int]:
    """Each value's ``id``, packed: 8 bytes each, where a list kept an int object (32 bytes)
    per tensor besides its slot."""
    return array("Q", map(id, values))


class Loose:
    """Names bound directly to a plain dense tensor (exactly ``torch.Tensor``, strided, no
    autograd, not a view), kept as columns: the bulk of a big namespace.

    NB: columns of shared objects (names are the namespace's own keys, shapes are interned, the
    cpu device is one object) and each tensor's id (its storage identity) packed in an array
    (:func:`id_column`): a few dozen bytes per tensor and no object the garbage collector has
    to track.
    """

    __slots__ = ("devices", "dtypes", "ids", "names", "shapes")

    def __init__(self, names: list[str] | None = None, devices: list[Any] | None = None,
                 dtypes: list[Any] | None = None, shapes: list[Any] | None = None,
                 ids: array[int] | None = None) -> None:
        self.names = names if names is not None else []
        self.devices = devices if devices is not None else []
        self.dtypes = dtypes if dtypes is not None else []
        self.shapes = shapes if shapes is not None else []
        self.ids = ids if ids is not None else array("Q")

    def __len__(self) -> int:
        return len(self.names)

    def headers(self) -> list[LooseHeader]:
        """Every row's header as its record spells it, for readers that need no record (a
        panel's first rows, the totals' first shares). NB: at C speed, no record built."""
        infos = list(map(dtype_info, self.dtypes))
        return list(map(_new, repeat(LooseHeader), zip(
            self.names, map(device_name, self.devices), map(_INFO_NAME, infos), self.shapes,
            map(mul, map(prod, self.shapes), map(_INFO_SIZE, infos)), self.ids, strict=True)))

    def header(self, i: int) -> LooseHeader:
        """Row ``i``'s header, as :meth:`headers` spells it, without its record."""
        shape = self.shapes[i]
        dtname, itemsize, _quantized = dtype_info(self.dtypes[i])
        return _new(LooseHeader, (self.names[i], device_name(self.devices[i]), dtname, shape,
                                  prod(shape) * itemsize, self.ids[i]))

    def record(self, i: int) -> ObjectRecord:
        """The ObjectRecord of row ``i``: exactly what the full walk records for that tensor."""
        name, shape = self.names[i], self.shapes[i]
        dev = device_name(self.devices[i])
        dtname, itemsize, quantized = dtype_info(self.dtypes[i])
        numel = prod(shape)
        nbytes = numel * itemsize
        t = _new(TensorRecord, (name, (_new(Step, ("name", name, "")),), "tensor", "", dev, dtname,
                                shape, numel, nbytes, False, True, "strided",
                                "quantized" if quantized else "dense", self.ids[i]))
        return _new(ObjectRecord, (name, "tensor", "Tensor", (t,), (), (dev,), (dtname,), nbytes,
                                   False, "", (), None, "", False))


class LooseIndex(NamedTuple):
    """Which compact rows have each raw layout (device, dtype, 0-dim), and each row's position
    in the snapshot: what analysis asks of the columns (:meth:`Snapshot.loose_layouts`), kept
    up to date row by row while a panel's snapshots only replace rows (:meth:`patched`)."""

    rows: dict[tuple[Any, Any, bool], set[int]]  # raw layout -> its rows (never empty)
    where: list[int]  # row -> position

    @classmethod
    def of(cls, loose: Loose, kinds: bytes | bytearray) -> LooseIndex:
        """NB: at C speed, one pass over the columns per distinct layout (a handful)."""
        keys = list(zip(loose.devices, loose.dtypes, map(not_, loose.shapes), strict=True))
        distinct = set(keys)
        if len(distinct) == 1:
            rows = {distinct.pop(): set(range(len(keys)))}
        else:
            rows = {k: set(compress(range(len(keys)), map(eq, keys, repeat(k))))
                    for k in distinct}
        where = list(compress(range(len(kinds)), map(eq, kinds, repeat(LOOSE))))
        return cls(rows, where)

    def patched(self, changes: list[tuple[int, tuple[Any, Any, bool], tuple[Any, Any, bool]]],
                ) -> LooseIndex:
        """This index with rows moved between layouts: ``(row, old layout, new layout)``.
        NB: copies every set it changes (the last snapshot's index stays as it was)."""
        rows, mine = dict(self.rows), set()
        for i, was, now in changes:
            if was == now:
                continue
            for k in (was, now):
                if k not in mine:
                    mine.add(k)
                    rows[k] = set(rows.get(k, ()))
            rows[was].discard(i)
            rows[now].add(i)
        for k in mine:
            if not rows[k]:
                del rows[k]
        return LooseIndex(rows, self.where)


_new = tuple.__new__  # NB: several times cheaper than a NamedTuple's generated __new__
_NAME = itemgetter(0)  # of an ObjectRecord
LOOSE, FULL = 0, 1  # what each position of a snapshot holds


# --- the snapshot ---------------------------------------------------------------------------

class Snapshot:
    """Where every tensor, module and optimizer state of one namespace lives. Immutable.

    ``kinds`` says, position by position in namespace order, whether an object is a compact
    loose tensor (:class:`Loose`, in order) or a walked record (``full``, in order).
    ``objects`` and ``totals`` are built on first read and kept; the fast readers
    :meth:`names`, :meth:`composites` and :meth:`loose_layouts` never build loose records.
    """

    __slots__ = ("__weakref__", "_byname", "_comps", "_full", "_index", "_kinds", "_loose",
                 "_objects", "_totals", "cells", "devices", "skipped", "torch_version",
                 "truncated")

    devices: tuple[DeviceInfo, ...]
    truncated: bool
    torch_version: str | None
    skipped: tuple[str, ...]  # names whose walk failed: reported, never raised
    cells: tuple[str, ...]  # the user's recent cell sources, oldest first (never executed)
    _kinds: bytes | bytearray
    _full: Sequence[ObjectRecord]
    _loose: Loose
    _objects: tuple[ObjectRecord, ...] | None
    _totals: tuple[DeviceTotal, ...] | None
    _byname: dict[str, tuple[int, int]] | None
    _comps: list[tuple[int, ObjectRecord]] | None
    _index: LooseIndex | None

    def __init__(self, kinds: bytes | bytearray, full: Sequence[ObjectRecord], loose: Loose,
                 devices: tuple[DeviceInfo, ...] = (), truncated: bool = False,
                 torch_version: str | None = None, skipped: tuple[str, ...] = (),
                 totals: tuple[DeviceTotal, ...] | None = None,
                 cells: tuple[str, ...] = ()) -> None:
        init = object.__setattr__
        init(self, "_kinds", kinds)
        init(self, "_full", full)
        init(self, "_loose", loose)
        init(self, "devices", devices)
        init(self, "truncated", truncated)
        init(self, "torch_version", torch_version)
        init(self, "skipped", skipped)
        init(self, "cells", cells)
        init(self, "_objects", None)
        init(self, "_totals", totals)
        init(self, "_byname", None)
        init(self, "_comps", None)
        init(self, "_index", None)

    def with_context(self, devices: tuple[DeviceInfo, ...], cells: tuple[str, ...]) -> Snapshot:
        """The same objects under newer devices and cells: the columns and every cache built
        from them are shared, not rebuilt (the panel's push after a cell that changed no
        object)."""
        snap = Snapshot(self._kinds, self._full, self._loose, devices, self.truncated,
                        self.torch_version, self.skipped, self._totals, cells)
        for cache in ("_objects", "_byname", "_comps", "_index"):
            object.__setattr__(snap, cache, getattr(self, cache))
        return snap

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return (f"Snapshot({len(self._kinds)} objects, devices="
                f"{[d.name for d in self.devices]}, truncated={self.truncated})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return (self.objects, self.totals, self.devices, self.truncated, self.torch_version,
                self.skipped, self.cells) == (other.objects, other.totals, other.devices,
                                              other.truncated, other.torch_version, other.skipped,
                                              other.cells)

    __hash__ = None  # type: ignore[assignment]

    # -- records
    @property
    def objects(self) -> tuple[ObjectRecord, ...]:
        objs = self._objects
        if objs is None:
            objs = tuple(self._records())
            object.__setattr__(self, "_objects", objs)
        return objs

    def _records(self) -> Iterator[ObjectRecord]:
        full, loose = iter(self._full), self._loose
        i = 0
        for kind in self._kinds:
            if kind == LOOSE:
                yield loose.record(i)
                i += 1
            else:
                yield next(full)

    def in_order(self) -> Iterator[ObjectRecord | LooseHeader]:
        """Every object in namespace order: a walked one's record, a compact row's header; for
        readers that need no record of a compact row (a panel's first rows)."""
        full, loose = iter(self._full), iter(self._loose.headers())
        for kind in self._kinds:
            yield next(loose) if kind == LOOSE else next(full)

    def __len__(self) -> int:
        return len(self._kinds)

    def __getitem__(self, name: str) -> ObjectRecord:
        kind, i = self._lookup()[name]
        return self._loose.record(i) if kind == LOOSE else self._full[i]

    def __contains__(self, name: object) -> bool:
        return name in self._lookup()

    def _lookup(self) -> dict[str, tuple[int, int]]:
        """name -> (kind, index in its list); built on first use."""
        index: dict[str, tuple[int, int]] | None = self._byname
        if index is None:
            index = {}
            counts = [0, 0]
            for name, kind in zip(self.names(), self._kinds, strict=True):
                index[name] = (kind, counts[kind])
                counts[kind] += 1
            object.__setattr__(self, "_byname", index)
        return index

    def at(self, position: int) -> ObjectRecord:
        """The record of the object at ``position`` in namespace order."""
        return self.records_at([position])[0]

    def records_at(self, positions: list[int]) -> list[ObjectRecord]:
        """The records at ascending ``positions``. NB: the kinds between two positions are
        counted at C speed, so a page of 1M names costs its rows, not a loop over the names."""
        if self._objects is not None:
            return [self._objects[p] for p in positions]
        out: list[ObjectRecord] = []
        kinds, loose, full = self._kinds, self._loose, self._full
        walked = last = 0  # NB: walked records before position ``last``
        for p in positions:
            walked += kinds.count(FULL, last, p)
            last = p
            out.append(full[walked] if kinds[p] == FULL else loose.record(p - walked))
        return out

    def rows_at(self, positions: list[int]) -> list[ObjectRecord | LooseHeader]:
        """:meth:`records_at`, a compact row's header in place of its record (a panel's page
        of loose tensors builds no record)."""
        if self._objects is not None:
            return [self._objects[p] for p in positions]
        out: list[ObjectRecord | LooseHeader] = []
        kinds, loose, full = self._kinds, self._loose, self._full
        walked = last = 0
        for p in positions:
            walked += kinds.count(FULL, last, p)
            last = p
            out.append(full[walked] if kinds[p] == FULL else loose.header(p - walked))
        return out

    def names(self) -> list[str]:
        """Every object's name, in namespace order. NB: at C speed (1M names)."""
        if not self._full:
            return list(self._loose.names)
        pick = (iter(self._loose.names), map(_NAME, self._full))
        return list(map(next, map(pick.__getitem__, self._kinds)))

    def tensors(self) -> list[TensorRecord]:
        return [t for o in self.objects for t in o.tensors]

    # -- fast readers for analysis
    def composites(self) -> list[tuple[int, ObjectRecord]]:
        """(position, record) of every object that is not a compact loose tensor."""
        comps = self._comps
        if comps is None:
            kinds = self._kinds
            comps = list(zip(compress(range(len(kinds)), kinds), self._full, strict=True))
            object.__setattr__(self, "_comps", comps)
        return comps

    def loose_index(self) -> LooseIndex:
        """The compact rows by layout; built on first use, or handed on by the live snapshot
        (:meth:`set_loose_index`)."""
        index = self._index
        if index is None:
            index = LooseIndex.of(self._loose, self._kinds)
            object.__setattr__(self, "_index", index)
        return index

    def set_loose_index(self, index: LooseIndex) -> None:
        """NB: for :class:`~devicelens.inspect._live.Live` only, right after building the
        snapshot, with the index of its columns (the cache a first read would fill)."""
        object.__setattr__(self, "_index", index)

    def loose_layouts(self) -> set[tuple[str, str, bool]]:
        """The distinct (device, dtype, 0-dim) of the compact loose tensors: what analysis
        reads instead of every row."""
        return {(device_name(d), dtype_info(dt)[0], s) for d, dt, s in self.loose_index().rows}

    def loose_positions(self, layouts: set[tuple[str, str, bool]]) -> list[int]:
        """Positions of the compact loose tensors with one of ``layouts``, ascending."""
        index = self.loose_index()
        hit = [rows for (d, dt, s), rows in index.rows.items()
               if (device_name(d), dtype_info(dt)[0], s) in layouts]
        rows = sorted(hit[0]) if len(hit) == 1 else sorted(set().union(*hit))
        return list(map(index.where.__getitem__, rows))

    def loose_named(self, names: set[str]) -> list[int]:
        """Positions of the compact loose tensors bound to one of ``names``, ascending (C speed).

        NB: a few names (what a cell that rebinds one name asks after: a page's changed row,
        the names a finding flags) are each found by ``list.index``, one C scan of the names
        that compares identities first, and placed by the walked records before them; a
        membership test of every name costs several such scans (0.3-0.5 ms at 10k names)."""
        if len(names) <= _FEW_NAMES:
            return self._loose_positions(sorted(filter(None, map(self._loose_row, names))))
        kinds = self._kinds
        positions = compress(range(len(kinds)), map(eq, kinds, repeat(LOOSE)))
        return list(compress(positions, map(names.__contains__, self._loose.names)))

    def _loose_row(self, name: str) -> int | None:
        """1 + the index of the compact row bound to ``name`` (None: none is): 0 stays falsy."""
        try:
            return list.index(self._loose.names, name) + 1
        except ValueError:
            return None

    def _loose_positions(self, rows: list[int]) -> list[int]:
        """The positions of compact rows ``rows`` (1-based, ascending) in namespace order: a
        row's index plus the walked records before it. NB: a walked record at position ``c``,
        the ``j``-th, has ``c - j`` compact rows before it, a sequence that never decreases."""
        if not rows or not self._full:
            return [r - 1 for r in rows]
        before = [p - j for j, (p, _o) in enumerate(self.composites())]
        return [r - 1 + bisect_right(before, r - 1) for r in rows]

    def summary(self, skip: Iterable[int]) -> tuple[tuple[str, ...], tuple[str, ...], int]:
        """The devices (in device order), dtypes (by name) and bytes of every object but those
        at positions ``skip``: what a view's one row for the names it leaves out says.
        NB: the compact rows' at C speed, no header or record built (100k names)."""
        kinds = self._kinds
        keep = [True] * len(kinds)
        for p in skip:
            keep[p] = False
        loose, full = self._loose, self._full
        mask = list(compress(keep, map(eq, kinds, repeat(LOOSE))))
        devs = dict.fromkeys(compress(loose.devices, mask))
        types = dict.fromkeys(compress(loose.dtypes, mask))
        sizes = dict(zip(types, map(_INFO_SIZE, map(dtype_info, types)), strict=True))
        nbytes = sum(map(mul, map(prod, compress(loose.shapes, mask)),
                         map(sizes.__getitem__, compress(loose.dtypes, mask))))
        devices = set(map(device_name, devs))
        dtypes = {dtype_info(t)[0] for t in types}
        for o in compress(full, compress(keep, kinds)):
            devices.update(o.devices)
            dtypes.update(o.dtypes)
            nbytes += o.nbytes
        return tuple(sorted(devices, key=device_key)), tuple(sorted(dtypes)), nbytes

    def same_records(self, other: Snapshot) -> bool:
        """Whether ``other`` holds the very same records, in the same order (compact rows: the
        same tensors, headers and names). NB: at C speed; records compare by identity."""
        a, b = self._loose, other._loose
        return (self._kinds == other._kinds and len(self._full) == len(other._full)
                and all(map(is_, self._full, other._full)) and a.names == b.names
                and a.ids == b.ids and a.devices == b.devices and a.dtypes == b.dtypes
                and a.shapes == b.shapes)

    # -- totals
    @property
    def totals(self) -> tuple[DeviceTotal, ...]:
        totals = self._totals
        if totals is None:
            acc = Totals()
            for o in self._full:
                acc.add(o.devices, o.tensors, o.kind)
            loose = self._loose
            acc.add_loose(loose.devices, loose.dtypes, loose.shapes, loose.ids)
            totals = acc.result()
            object.__setattr__(self, "_totals", totals)
        return totals
