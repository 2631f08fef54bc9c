"""A namespace's snapshot kept up to date: after each cell, pay only for what changed.

:class:`Live` remembers, per name, what the last walk read (a token, :mod:`._token`) and the
record it gave, and for names bound to a plain tensor their identity and header. Each
:meth:`Live.update` checks every header and every token again (no cache is trusted: ``.data =``,
``Module.to()`` and ``requires_grad_()`` change a tensor without changing its identity or its
``_version``): headers through torch's tensor guard where it proves them (:mod:`._headers`),
else read. Module trees and optimizers are checked by watches that prove their tokens equal
without reading them (:mod:`._forest_watch`, :mod:`._optimizer_watch`), and that recognise a
training step (only grads replaced by equal ones: their records move, nothing is walked). It
re-walks only the names whose reading changed, and returns a snapshot equal to a fresh
:func:`~.snapshot.take_snapshot`. NB: it holds no user object: ids, headers, records, guards,
weak references to modules, and the types and keys a token pins.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from itertools import chain, compress, filterfalse, repeat
from operator import is_, itemgetter, not_
from types import MappingProxyType
from typing import Any, NamedTuple

from . import _types
from ._class_sources import called_sources, class_sources, library_sources
from ._columns import changed_names, compact_rows, shown
from ._forest_watch import ForestWatch
from ._gc import gc_paused
from ._headers import Sweep
from ._objects import walk_object
from ._optimizer_watch import Watch, checked, watch_of
from ._token import Token, forest_token, token
from ._totals import (
    RunningTotals,
    Share,
    header_share,
    loose_share,
    loose_shares,
    share_of,
)
from ._walk import Ctx
from .records import (
    FULL,
    LOOSE,
    Loose,
    LooseIndex,
    ObjectRecord,
    Snapshot,
    grads_moved,
    id_column,
    owned_grads,
)
from .snapshot import MAX_NODES, available_devices, recent_cells, take_snapshot

_DEVICE, _DTYPE, _SHAPE = itemgetter(0), itemgetter(1), itemgetter(2)
_LAYOUT, _RG, _BASE = itemgetter(3), itemgetter(4), itemgetter(5)  # of a sweep's header
#: a forest token no reading equals (its grads replaced since): the watch still answers
_RETIRED: Token = [object()]


class Entry(NamedTuple):
    """The last walk of one name that is not a compact loose tensor."""

    ident: tuple[int, int]  # id of the object and of its type
    tok: Token | None  # None where a watch is kept instead
    pins: list[Any]
    record: ObjectRecord | None
    regs: list[tuple[int, str]]  # parameter paths the walk registered (for optimizers)
    truncated: bool  # by width or depth (past the node budget, nothing is kept)
    watch: Watch | None = None  # proves an optimizer's token equal without it (or a
    # wrapped one's)


class Kept(NamedTuple):
    """What the module names of an unchanged forest give a snapshot, merged once."""

    entries: dict[str, Entry]
    walked: dict[str, ObjectRecord]
    regs: dict[int, str]  # parameter paths, first registration first
    truncated: bool


def _kept(entries: dict[str, Entry], names: list[str]) -> Kept:
    mine = {name: entries[name] for name in names}
    regs: dict[int, str] = {}
    for entry in mine.values():
        for key, path in entry.regs:
            regs.setdefault(key, path)
    return Kept(mine, {k: e.record for k, e in mine.items() if e.record is not None}, regs,
                any(e.truncated for e in mine.values()))


class Update(NamedTuple):
    snapshot: Snapshot
    changed: frozenset[str] | None  # names whose record is new or different; None: unknown
    removed: frozenset[str]
    # the records of the changed names; where ``changed`` is None (a first update), only the
    # walked ones: a compact row's record is read from the snapshot
    records: dict[str, ObjectRecord]
    # NB: changed names whose record differs from the last only in its grads' storages (a
    # training step's new grads, :func:`.records.grads_moved`), each with the record it
    # replaced: whatever is derived from a record without reading grads' storages (a panel
    # row, the findings) is as it was
    regraded: Mapping[str, ObjectRecord] = MappingProxyType({})


def _gone(prev: Snapshot | None, loose: Loose, walked: Mapping[str, ObjectRecord]
          ) -> frozenset[str]:
    """The names with a record in ``prev`` and none now (a compact row or a walked name)."""
    if prev is None:
        return frozenset()
    now = set(loose.names)
    now.update(walked)
    return frozenset(filterfalse(now.__contains__, prev.names()))


def _type_ids(types: list[type]) -> list[int]:
    """The ids of ``types``, each distinct id one int object (a namespace holds a few types,
    and ``map(id, ...)`` makes a new int per name). NB: ints hashed, never a type."""
    ids = list(map(id, types))
    table: dict[int, int] = {}
    return list(map(table.setdefault, ids, ids))


def _loose_shares_of(prev: Snapshot, names: set[str], walked: Mapping[str, Share]
                     ) -> dict[str, Share]:
    """The totals' shares of those of ``names`` that were compact rows of ``prev``, read from
    its columns (a name with a share in ``walked`` was no compact row). NB: a name at a time
    where they are few, as :meth:`Live._patched` finds rows."""
    old = prev._loose
    names = names - walked.keys()
    if not names or not len(old):
        return {}
    if len(names) > 8:
        row = dict(zip(old.names, range(len(old.names)), strict=True))
        at = [(k, row[k]) for k in names if k in row]
    else:
        at = [(k, old.names.index(k)) for k in names if k in old.names]
    return {k: header_share(old.header(i)) for k, i in at}


class Live:
    """The snapshot of one namespace, updated in place of a fresh one after each cell."""

    def __init__(self) -> None:
        self.snap: Snapshot | None = None
        self.order: list[str] = []  # the public names, in namespace order
        self.keys: list[Any] = []
        self.public = b""  # NB: flags as bytes: a list kept 8 bytes a name
        self.tnames: list[str] = []  # exact-Tensor names, in order
        self.types: list[type] = []  # the public values' types at the last update (pinned)
        self.exact = b""  # which of them are exactly ``Tensor``
        self.sweep = Sweep()  # their ids and headers; NB: re-reads only what no guard proves
        self.guarded = True  # whether this update may prove headers with guards
        self.columns_key: tuple[bytes, list[str]] | None = None  # what fixes the columns
        self.full_names: list[str] = []  # the walked names, in namespace order
        # where each plain tensor's name is in ``tnames`` and each compact row's in the columns
        self.index: tuple[dict[str, int], dict[str, int]] | None = None
        self.compact = b""  # which plain tensors are compact rows
        self.todo_key: tuple[Any, ...] = ()  # what the names to token were derived from
        self.todo: list[str] = []
        self.todo_types: list[type] = []
        self.n_mods = 0  # how many of them are modules (first, in that list)
        self.entries: dict[str, Entry] = {}
        self.forest: Token | None = None  # every module name's token, read together
        self.forest_pins: list[Any] = []
        self.forest_kept: Kept | None = None  # their entries, records and parameter paths
        self.watch = ForestWatch()  # proves the forest unchanged without its token
        self.shares: dict[str, Share] = {}  # what each name adds to the totals
        self.totals = RunningTotals()
        self.regraded: dict[str, ObjectRecord] = {}  # this update's names whose grads only
        # moved, and the records they had
        self.renames: dict[str, tuple[list[int], list[int]]] = {}  # and, for each, the old
        # storages of the grads moved and the new ones, in order
        # NB: name -> (its record, where that record's grads are): found once, kept across
        # training steps (each step's record has them at the same places)
        self.grad_places: dict[str, tuple[ObjectRecord, list[int]]] = {}
        # NB: name -> the marked sources of the library classes its record needs
        # (:mod:`._class_sources`), and all of them as the snapshot's cells end with them
        self.sources: dict[str, tuple[str, ...]] = {}
        self.source_cells: tuple[str, ...] = ()

    def update(self, namespace: dict[str, Any], live: bool = False) -> Update:
        """The namespace's snapshot now, and which names changed since the last update.
        ``live``: a cell may be running on another thread; then no header is proven by a
        guard (:mod:`._headers`): the cell could swap a tensor between its checks."""
        self.guarded = not live
        import torch

        try:
            with gc_paused(), torch._C.DisableTorchFunction():  # NB: as in take_snapshot
                return self._update(torch, namespace)
        except BaseException:
            self.__init__()  # type: ignore[misc]  # NB: never trust a half-applied update
            raise

    def _update(self, torch: Any, ns: dict[str, Any]) -> Update:
        keys = list(ns)
        vals = list(dict.values(ns))
        if len(keys) > MAX_NODES // 2:
            return self._fresh(ns)
        if keys == self.keys:  # NB: the same names: the public ones are the last update's
            pkeys = self.order
        elif (n := len(self.keys)) and len(keys) > n and keys[:n] == self.keys:
            # NB: names added last, as every cell does (IPython binds its source to a new
            # ``_iN``): only those are judged; none shown, and the public names are the last's
            added = shown(keys[n:])
            self.keys, self.public = keys, self.public + bytes(added)
            pkeys = list(compress(keys, self.public)) if True in added else self.order
        else:
            self.keys = keys
            self.public = bytes(shown(keys))
            pkeys = list(compress(keys, self.public))
        pvals = list(compress(vals, self.public))
        types = list(map(type, pvals))
        # NB: the same names bound to values of the very same types: the same tensor names
        same_types = ((pkeys is self.order or pkeys == self.order)
                      and len(types) == len(self.types)
                      and False not in map(is_, types, self.types))
        if same_types:
            exact, tnames = self.exact, self.tnames
        else:
            exact = bytes(map(is_, types, repeat(torch.Tensor)))
            tnames = list(compress(pkeys, exact))
        self.types, self.exact = types, exact
        tvals = list(compress(pvals, exact))
        tids = id_column(tvals)
        old = self.tnames
        keep = len(old) if tnames == old or tnames[:len(old)] == old else 0
        old_ids, old_metas = self.sweep.ids, self.sweep.metas
        metas, fresh = self.sweep.read(tvals, tids, keep, self.guarded)
        loose_changed: set[str] = set()
        if self.snap is not None and tnames == old:
            if fresh:  # NB: outside the chunks read again, every tensor and header is the same
                compact = bytearray(self.compact)  # NB: a copy: the last todo key holds it
                for s, e in fresh:
                    loose_changed |= changed_names(tnames[s:e], old_ids[s:e], old_metas[s:e],
                                           tnames[s:e], tids[s:e], metas[s:e])
                    compact[s:e] = compact_rows(metas[s:e], torch.strided)
                self.compact = bytes(compact)
        else:
            loose_changed = changed_names(old, old_ids, old_metas, tnames, tids, metas)
            if tnames != old:  # NB: names that trade a tensor for a number (``a, b = b, a``)
                self.columns_key = None  # can leave every count as it was: no patching then
            self.tnames = tnames
            self.compact = bytes(compact_rows(metas, torch.strided))
        return self._assemble(torch, ns, pkeys, pvals, types, exact, metas, loose_changed,
                              same_types)

    def _assemble(self, torch: Any, ns: dict[str, Any], pkeys: list[str], pvals: list[Any],
                  types: list[type], exact: bytes, metas: list[tuple[Any, ...]],
                  loose_changed: set[str], same_types: bool) -> Update:
        compact = self.compact
        ctx = Ctx(torch, MAX_NODES - len(metas))
        ctx.guarded = self.guarded
        self.regraded, self.renames = {}, {}
        walked, changed, skipped = self._walk_rest(ctx, ns, pkeys, pvals, types, exact, compact,
                                                   same_types)
        if ctx.exhausted:
            return self._fresh(ns)
        prev = self.snap
        changed |= loose_changed
        recent = recent_cells(ns)
        called = called_sources(ns, recent)
        cells = recent + library_sources(self.source_cells, called)
        same_order = pkeys is self.order or pkeys == self.order
        if prev is not None and not changed and not skipped and same_order:
            if cells != prev.cells:  # NB: a new cell, no object changed: the same columns
                prev = self.snap = prev.with_context(available_devices(torch), cells)
            return Update(prev, frozenset(), frozenset(), {})
        self.order = pkeys
        if prev is not None and same_order and (compact, list(walked)) == self.columns_key:
            kinds, full, loose, where, index = self._patched(prev, metas, walked, changed)
            removed = frozenset[str]()  # NB: the same names hold records
        else:
            kinds, full, loose, where = self._columns(pkeys, compact, metas, walked, changed)
            index = None
            self.columns_key = (compact, list(walked))
            removed = _gone(prev, loose, walked)
        first = prev is None
        if first:  # NB: no row to compare, nobody reads the records (see Update): the compact
            # rows' shares come from the columns, and their records are never built here
            records = {k: walked[k] for k in changed if k in walked}
        else:
            records = {k: walked[k] if k in walked else loose.record(where[k])
                       for k in changed if k in walked or k in where}
        if first or not self._rekeyed(records, changed | removed):  # NB: a training step's
            self._count(first, records, changed | removed, walked, loose, prev)  # renames
        if self._sources_of(ns, records, removed):
            self.source_cells = library_sources(*self.sources.values())
            cells = recent + library_sources(self.source_cells, called)
        snap = Snapshot(bytes(kinds), full, loose, available_devices(torch), ctx.truncated,
                        torch.__version__, tuple(skipped), self.totals.result(), cells)
        if index is not None:
            snap.set_loose_index(index)
        self.snap = snap
        # NB: a changed name holds a record where it is walked or a compact row (``where``):
        # the names of every record are never kept (a set of them cost more than a column)
        return Update(snap, None if first else frozenset(records),
                      frozenset() if first else removed, records,
                      {} if first else {k: old for k, old in self.regraded.items()
                                        if (k in walked or k in where)
                                        and k not in loose_changed})

    def _sources_of(self, ns: dict[str, Any], records: dict[str, ObjectRecord],
                    removed: frozenset[str]) -> bool:
        """Keep the library classes' sources of the changed names' records (a record whose
        grads alone moved needs the ones it had); whether any name's changed."""
        sources = self.sources
        changed = False
        for k in removed:
            changed |= sources.pop(k, None) is not None
        for k, rec in records.items():
            if k in self.regraded:
                continue
            got = class_sources(ns, (rec,))
            if got:
                changed |= sources.get(k) != got
                sources[k] = got
            else:
                changed |= sources.pop(k, None) is not None
        return changed

    def _rekeyed(self, records: dict[str, ObjectRecord], touched: set[str]) -> bool:
        """The totals after a training step: where every name that changed is one whose grads
        alone moved (:meth:`_grads_moved`), their storages are renamed in the totals and no
        record is read; False, nothing changed, otherwise (then :meth:`_count`).
        NB: a moved grad's record keeps its header, so its share's sightings differ from the
        last only in their storages, which the renames list in order."""
        renames, shares = self.renames, self.shares
        if not records or touched != records.keys() or not all(
                map(renames.__contains__, records)) or not all(map(shares.__contains__, records)):
            return False
        olds = list(chain.from_iterable(renames[k][0] for k in records))
        news = list(chain.from_iterable(renames[k][1] for k in records))
        if not self.totals.rekeyed(olds, news):
            return False
        for k, rec in records.items():
            was = self.regraded.get(k)  # NB: a share that was its record's very tuple of
            shares[k] = (Share(rec.devices, rec.tensors, True)  # tensors is the new one's
                         if was is not None and shares[k].tensors is was.tensors
                         else share_of(rec))
        return True

    def _count(self, first: bool, records: dict[str, ObjectRecord], touched: set[str],
               walked: Mapping[str, ObjectRecord], loose: Loose, prev: Snapshot | None) -> None:
        """The totals with every name of ``touched`` counted again from its record (or gone),
        the compact rows' shares read from the columns."""
        shares, totals = self.shares, self.totals
        # NB: a compact row's share is kept nowhere but in the last snapshot's columns (one
        # per loose tensor was a quarter of what a big namespace's panel kept)
        was_loose = {} if prev is None else _loose_shares_of(prev, touched, shares)
        if not first:
            for k in touched - records.keys():
                old = shares.pop(k, None) or was_loose.get(k)
                if old is not None:
                    totals.remove(old)
        pairs: list[tuple[Share, Share]] = []
        fresh: list[Share] = []
        for k, rec in records.items():
            if k in walked:
                share = share_of(rec)
                old = shares.get(k) or was_loose.get(k)
                shares[k] = share
            else:
                share = loose_share(rec)
                old = shares.pop(k, None) or was_loose.get(k)
            if old is None:
                fresh.append(share)
            else:
                pairs.append((old, share))
        if first:
            fresh += loose_shares(loose)
        totals.replace(pairs)  # NB: every old sighting goes before any new one comes
        totals.add_all(fresh)

    def _walk_rest(self, ctx: Ctx, ns: dict[str, Any], pkeys: list[str], pvals: list[Any],
                   types: list[type], exact: bytes, compact: bytes,
                   same_types: bool) -> tuple[dict[str, ObjectRecord], set[str], list[str]]:
        """Token every name that is not a compact tensor; walk the ones whose token changed.
        ``same_types``: the names and their values' types are the last update's."""
        key = self.todo_key  # NB: every update leaves it equal to its own (names, kinds, types)
        if same_types and key and (key[0] is pkeys or key[0] == pkeys) and (
                key[1] is compact or key[1] == compact):
            todo_key = key
        else:
            todo_key = (pkeys, compact, _type_ids(types))  # NB: ``exact`` follows from types
        if todo_key == self.todo_key:  # NB: same names, kinds and types: the same names to token
            todo = list(zip(self.todo, map(ns.__getitem__, self.todo), strict=True))
        else:
            # NB: every name but a compact tensor, at C speed; a tensor that is no compact row
            # (a view, one that needs grad) is walked too
            mask = list(map(not_, exact))
            if compact.count(False):
                for p in compress(compress(range(len(exact)), exact), map(not_, compact)):
                    mask[p] = True
            named = list(compress(zip(pkeys, pvals, strict=True), mask))
            not_mod = [_types.info(type(v)).what != "module" for _k, v in named]
            todo = [named[i] for i in sorted(range(len(named)), key=not_mod.__getitem__)]
            # NB: the types stay pinned, so the ids in the key stay theirs
            self.todo_key, self.todo, self.todo_types = todo_key, [k for k, _v in todo], types
            self.n_mods = not_mod.count(False)
        walked: dict[str, ObjectRecord] = {}
        changed: set[str] = set()
        skipped: list[str] = []
        entries: dict[str, Entry] = {}
        n_mods = self.n_mods
        verdict = self._forest_unchanged(ctx, todo[:n_mods])
        if verdict:
            kept = self.forest_kept
            if kept is None:
                kept = self.forest_kept = _kept(self.entries, self.todo[:n_mods])
            if verdict is not True:  # NB: grads replaced by equal ones: no walk, no token
                kept = self.forest_kept = self._regrad(kept, verdict, changed)
            ctx.truncated |= kept.truncated
            todo = todo[n_mods:]
            if not todo:  # NB: nothing else to read: the kept dicts themselves, never edited
                if self.entries is not kept.entries:
                    gone = self.entries.keys() - kept.entries.keys()
                    changed.update(gone)
                    for name in gone:
                        self.grad_places.pop(name, None)
                self.entries = kept.entries
                return kept.walked, changed, skipped
            ctx.param_paths.update(kept.regs)  # NB: modules come first: it was empty
            entries.update(kept.entries)
            walked.update(kept.walked)
        else:
            self.forest_kept = None
        for name, obj in todo:
            try:
                entry, fresh = self._entry(ctx, name, obj)
            except Exception:  # NB: a hostile object costs its own row, never the snapshot
                skipped.append(name)
                changed.add(name)
                continue
            entries[name] = entry
            ctx.truncated |= entry.truncated
            if fresh:
                changed.add(name)
            if entry.record is not None:
                walked[name] = entry.record
        for name in self.entries.keys() - entries.keys():
            changed.add(name)
            self.grad_places.pop(name, None)
        self.entries = entries
        return walked, changed, skipped

    def _regrad(self, kept: Kept, moved: dict[int, int], changed: set[str]) -> Kept:
        """The kept entries with the grads ``moved`` at their new storages (the names whose
        record that changes go to ``changed``). NB: their tokens, and the forest's, still hold
        the old grads' ids, which new grads may take again: they are dropped, never compared."""
        entries = dict(kept.entries)
        for name, e in kept.entries.items():
            if e.record is None:
                continue
            record = self._grads_moved(name, e.record, moved)
            if record is not e.record:
                entries[name] = e._replace(record=record, tok=None)
                changed.add(name)
                self.regraded[name] = e.record
        self.forest = _RETIRED
        return _kept(entries, list(entries))

    def _grads_moved(self, name: str, record: ObjectRecord, moved: dict[int, int]
                     ) -> ObjectRecord:
        """:func:`.records.grads_moved`, with the places of the record's grads kept by name."""
        kept = self.grad_places.get(name)
        at = kept[1] if kept is not None and kept[0] is record else owned_grads(record)
        olds: list[int] = []
        now = grads_moved(record, moved, at, olds)
        self.grad_places[name] = (now, at)
        if now is not record:
            self.renames[name] = (olds, list(map(moved.__getitem__, olds)))
        return now

    def _forest_unchanged(self, ctx: Ctx, mods: list[tuple[str, Any]]) -> bool | dict[int, int]:
        """Whether every module name reads exactly as last time, checked for all of them at
        once: by the watch where it can prove it (:mod:`._forest_watch`), else by their token
        (:func:`._token_tree.forest_token`); then none of them is tokened alone. Or, from the
        watch, which grads moved (old id -> new id) where nothing else changed
        (:class:`._tensor_list.Regrad`)."""
        known = all(map(self.entries.__contains__, self.todo[:len(mods)]))
        verdict = self._watched(ctx, mods) if known and self.forest is not None else False
        if verdict:
            return verdict  # NB: the token would be equal (:mod:`._forest_watch`): not read
        try:  # NB: before the token: what the watch keeps then predates every read after it
            self.watch.remember(ctx, mods)
        except Exception:  # NB: a shortcut never costs the push (a dict resized, say)
            self.watch.forget()
        tok, pins = forest_token(ctx, mods)
        same = tok is not None and tok == self.forest and known
        self.forest, self.forest_pins = tok, pins
        if tok is None:
            self.watch.forget()
        return same

    def _watched(self, ctx: Ctx, mods: list[tuple[str, Any]]) -> bool | dict[int, int]:
        try:
            verdict = self.watch.same(ctx, mods)
        except Exception:  # NB: as in remember: read the token instead
            return False
        if verdict and self.watch.seen is not None:  # NB: optimizers need not read them again
            ctx.proven = self.watch.seen.tables[0].tensors
            ctx.moved = verdict if verdict is not True else {}
        return verdict

    def _entry(self, ctx: Ctx, name: str, obj: Any) -> tuple[Entry, bool]:
        """This name's entry now, and whether its record may have changed.
        NB: an optimizer that can be watched (:mod:`._optimizer_watch`) is never tokened: when
        its watch fails it has changed (new grads, say) as often as not, and its token costs
        about what its walk does. Whatever is read first vouches for what is read after it: a
        change made meanwhile (by a cell on another thread) shows at the next update."""
        old = self.entries.get(name)
        ident = (id(obj), id(type(obj)))
        known = old is not None and old.ident == ident
        if known and old is not None and old.watch is not None:
            verdict = checked(old.watch, ctx, obj)
            if verdict is True:
                return self._kept_entry(ctx, old), False  # NB: its token would be equal
            if verdict is not False:  # NB: grads replaced by equal ones: no walk
                moved, watch_now = verdict
                record = (self._grads_moved(name, old.record, moved) if old.record is not None
                          else None)
                entry = old._replace(record=record, watch=watch_now)
                if record is not None and old.record is not None and record is not old.record:
                    self.regraded[name] = old.record
                return self._kept_entry(ctx, entry), record is not old.record
        watch = watch_of(ctx, obj)
        tok: Token | None = None
        pins: list[Any] = []
        if watch is None:
            tok, pins = token(ctx, obj)
            if known and old is not None and tok == old.tok:
                return self._kept_entry(ctx, old), False
        regs: list[tuple[int, str]] = []
        record, truncated = walk_object(ctx, name, obj, regs)
        pins.append(type(obj))
        same = old is not None and old.record == record
        if same and old is not None:
            record = old.record  # NB: the very record: what is kept by identity stays valid
        else:
            self.grad_places.pop(name, None)  # NB: found in a record no longer kept
        return Entry(ident, tok, pins, record, regs, truncated, watch), not same

    @staticmethod
    def _kept_entry(ctx: Ctx, old: Entry) -> Entry:
        for key, path in old.regs:
            ctx.param_paths.setdefault(key, path)
        return old

    def _patched(self, prev: Snapshot, metas: list[tuple[Any, ...]],
                 walked: dict[str, ObjectRecord], changed: set[str]
                 ) -> tuple[bytes, list[ObjectRecord], Loose, dict[str, int], LooseIndex | None]:
        """:meth:`_columns` when the names, which of them are compact rows and which are walked
        are all as at the last snapshot: its columns, copied, with the changed rows replaced (and
        its index of rows by layout, where it was built, with them moved).
        NB: copies, never edits: the last snapshot may still be read (a diff, a memo)."""
        old = prev._loose
        loose = Loose(old.names, old.devices[:], old.dtypes[:], old.shapes[:], old.ids[:])
        tnames, tids = self.tnames, self.sweep.ids
        moved = [k for k in changed if k not in walked]  # NB: compact rows, or skipped names
        if len(moved) > 8:
            if self.index is None:  # NB: kept while the columns are patched: names unchanged
                self.index = (dict(zip(tnames, range(len(tnames)), strict=True)),
                              dict(zip(loose.names, range(len(loose.names)), strict=True)))
            at, row = self.index
            pairs = [(at[k], row[k]) for k in moved if k in row]
        else:
            pairs = [(tnames.index(k), loose.names.index(k)) for k in moved
                     if k in loose.names]
        where: dict[str, int] = {}
        moves = []
        for p, i in pairs:
            m = metas[p]
            moves.append((i, (old.devices[i], old.dtypes[i], not old.shapes[i]),
                          (m[0], m[1], not m[2])))
            loose.devices[i], loose.dtypes[i], loose.shapes[i], loose.ids[i] = (
                m[0], m[1], m[2], tids[p])
            where[tnames[p]] = i
        full = list(map(walked.__getitem__, self.full_names))
        index = prev._index.patched(moves) if prev._index is not None else None
        return bytes(prev._kinds), full, loose, where, index

    def _columns(self, pkeys: list[str], compact: bytes, metas: list[tuple[Any, ...]],
                 walked: dict[str, ObjectRecord], changed: set[str]
                 ) -> tuple[bytes, list[ObjectRecord], Loose, dict[str, int]]:
        """A snapshot's columns in namespace order, and where each changed compact row is.
        NB: at C speed: dict and ``compress``/``map`` over the names, no loop per name."""
        tnames, ids = self.tnames, self.sweep.ids
        self.index = None
        if compact.count(False):
            rows = list(compress(metas, compact))
            names, ids = list(compress(tnames, compact)), array("Q", compress(ids, compact))
        else:  # NB: every plain tensor a row (the usual case): the names and ids columns are
            # the live snapshot's own lists, shared (neither is ever edited in place)
            rows, names = metas, tnames
        loose = Loose(names, list(map(_DEVICE, rows)), list(map(_DTYPE, rows)),
                      list(map(_SHAPE, rows)), ids)
        kind_of = dict.fromkeys(loose.names, LOOSE)
        kind_of.update(dict.fromkeys(walked, FULL))
        ordered = list(filter(kind_of.__contains__, pkeys))
        kinds = bytes(map(kind_of.__getitem__, ordered))
        self.full_names = list(compress(ordered, kinds))
        full = list(map(walked.__getitem__, self.full_names))
        moved = [k for k in changed if kind_of.get(k) == LOOSE]
        where = (dict(zip(loose.names, range(len(loose.names)), strict=True)) if len(moved) > 8
                 else {k: loose.names.index(k) for k in moved})
        return kinds, full, loose, where

    def _fresh(self, ns: dict[str, Any]) -> Update:
        """Past the node budget: a plain snapshot, and no memory of it."""
        self.__init__()  # type: ignore[misc]
        return Update(take_snapshot(ns), None, frozenset(), {})
