"""A plain model's records, read in columns: one pass over its modules gathers the tensors with
their paths, then each field of every record is computed for all of them at once, at C speed.

The records equal :meth:`._walk.Walker.module`'s, which stays the reference and the fallback:
a model holding anything this reader does not take (a tensor subclass, a nested or sparse
tensor, a tensor bound as a plain attribute, an attribute container holding more than plain
values or nested past the walker's bounds, a grad that is not a plain dense tensor, too small a
node budget) is refused here (False) and walked as before, from scratch. NB: nothing is
written to the walker or its context until every read has succeeded; a model's modules cost
the walker's steps still (most of what is left), its tensors a few C-speed passes.
"""

from __future__ import annotations

from collections import deque
from itertools import accumulate, chain, compress, filterfalse, repeat
from operator import and_, attrgetter, gt, is_not, itemgetter
from typing import Any

from . import _tree, _types
from ._tensor import _META
from ._tree import _ATTR_STEPS, Ref, attr_step
from ._walk import (
    _DEVICE,
    _DTYPE,
    _FLOATS,
    _GRAD,
    _HEADS,
    _NBYTES,
    _PLAIN_STEPS,
    _STORAGE,
    MAX_DEPTH,
    MAX_WIDTH,
    STD_KEYS,
    Walker,
    _shared,
    dedup_bytes,
    devices_of,
    header,
    module_record,
    placed_by,
    uniq,
)
from .records import ModuleRecord, TensorRecord

_new = tuple.__new__
_KEY, _LAYOUT = itemgetter(slice(0, 3)), itemgetter(3)  # NB: of a header (``_META``)
_RG, _LEAF, _BASE = itemgetter(4), itemgetter(5), itemgetter(6)
_H0, _H1, _H2, _H3, _H4, _H5 = map(itemgetter, range(6))  # NB: of a :func:`._walk.header`
_GRAD_OF, _RETAINS = attrgetter("grad"), attrgetter("retains_grad")
_ROLE = {True: "parameter", False: "buffer"}.__getitem__
_NONE_ID = id(None)


class _Plan:
    """The model's tensors in record order (each module's tables, then its children's), with
    their paths and refs; the runs of them each table gave; and the modules, in walk order."""

    __slots__ = ("exact", "mods", "nodes", "paths", "refs", "runs", "seen", "ts")

    def __init__(self, exact: tuple[type, type]) -> None:
        self.exact = exact
        self.seen: set[int] = set()
        self.ts: list[Any] = []
        self.paths: list[str] = []
        self.refs: list[Ref] = []
        self.runs: list[tuple[int, str, bool]] = []  # NB: (how many, owner, parameters?)
        # NB: (path, ref, type name, depth, hf hook, first tensor, end tensor), pre-order
        self.mods: list[Any] = []
        self.nodes = 0  # the budget the walker would spend on modules and plain containers

    def module(self, m: Any, path: str, ref: Ref, depth: int,
               info: _types.TypeInfo | None = None) -> bool:
        """Gather ``m``'s subtree as :meth:`Walker.module` walks it; False where it holds
        anything this reader does not take. ``info``: ``m``'s type's, where a caller has it."""
        mid = id(m)
        if mid in self.seen:
            return True  # NB: a cycle: the walker skips it too
        self.seen.add(mid)
        self.nodes += 1
        if info is None:
            info = _types.info(type(m))
        d = _tree.script_view(_types.read_dict(info, m) or {})
        mods = self.mods
        at, start = len(mods), len(self.ts)
        mods.append(None)
        entries = d.get("_parameters")  # NB: empty tables (most buffers) cost no call
        if entries and not self._table(entries, path, ref, True):
            return False
        entries = d.get("_buffers")
        if entries and not self._table(entries, path, ref, False):
            return False
        children = d.get("_modules")
        if type(children) is not dict or children:
            hint = info.hint
            steps = _ATTR_STEPS.get(hint) or {}
            kinfo = _types.info
            for name, child in _tree._table(children):
                ci = kinfo(type(child))
                if (ci.what == "module"
                        and not self.module(child, f"{path}.{name}",
                                            (*ref, steps.get(name) or attr_step(name, hint)),
                                            depth + 1, ci)):
                    return False
        if not self._attributes(d):
            return False
        mods[at] = (path, ref, info.name, depth, placed_by(d), start, len(self.ts))
        self.seen.discard(mid)
        return True

    def _table(self, entries: Any, path: str, ref: Ref, params: bool) -> bool:
        if not issubclass(type(entries), dict):
            return True
        exact0, exact1, steps = self.exact[0], self.exact[1], _PLAIN_STEPS
        ts, paths, refs = self.ts, self.paths, self.refs
        n = len(ts)
        for name, t in list(dict.items(entries)):  # NB: copied first (a running cell)
            if t is None or type(name) is not str:
                continue
            tp = type(t)
            if tp is not exact0 and tp is not exact1:
                return False
            ts.append(t)
            paths.append(f"{path}.{name}")
            refs.append((*ref, steps.get(name) or attr_step(name)))
        self.runs.append((len(ts) - n, path, params))
        return True

    def column(self, field: int) -> list[Any]:
        """Role (0), owner (1) or whether a parameter (2), tensor by tensor, from the runs."""
        runs = self.runs
        values = map(itemgetter(field), runs) if field else map(_ROLE, map(itemgetter(2), runs))
        return list(chain.from_iterable(map(repeat, values, map(itemgetter(0), runs))))

    def _attributes(self, d: dict[str, Any]) -> bool:
        """A module's own attributes: numbers, strings and other plain objects are never
        walked; containers of plain values (:func:`_plain_nodes`) cost the walker nodes and
        give no record; anything else is not taken."""
        for name in list(filterfalse(STD_KEYS.__contains__, d)):
            if type(name) is not str:
                continue
            v = d[name]
            tp = type(v)
            if tp is int or tp is bool or tp is float or v is None:
                continue
            what = _types.info(tp).what
            if what == "tensor":
                return False
            if name[:1] != "_" and what and what not in ("module", "optimizer"):
                nodes = _plain_nodes(v, 1)
                if nodes < 0:
                    return False
                self.nodes += nodes
        return True


def _plain_nodes(v: Any, depth: int) -> int:
    """The nodes the walker spends on a tuple, list or dict (exactly those types) holding no
    tensor, module or other container, nested ones included (a config's ``{"sizes": [3, 3]}``,
    an empty ``warnings_issued``): it reads no record from them. -1 where it could."""
    tp = type(v)
    if tp is dict:
        items = list(dict.values(v))  # NB: the base type's method, in one C call
    elif tp is tuple or tp is list:
        items = list(v)
    else:
        return -1
    if len(items) > MAX_WIDTH:
        return -1  # NB: the walker marks the record truncated
    nodes = 1
    for x in items:
        tx = type(x)
        if tx is int or tx is float or tx is bool or tx is str or x is None:
            continue
        what = _types.info(tx).what
        if not what:
            continue
        if depth + 1 >= MAX_DEPTH:
            return -1  # NB: too deep: the walker marks it truncated (or a cycle: it skips it)
        inner = _plain_nodes(x, depth + 1)
        if inner < 0:
            return -1
        nodes += inner
    return nodes


class Columns:
    """Every field of a list of plain dense tensors' records, computed column by column."""

    def __init__(self, w: Walker, ts: list[Any]) -> None:
        self.ok = False
        try:
            metas = list(map(_META, ts))
        except RuntimeError:  # NB: a nested tensor has no sizes: the walker reads it
            return
        layouts = set(map(_LAYOUT, metas))
        if layouts and layouts != {w.reader.strided}:
            return
        self.ok = True
        self.metas = metas
        keys = list(map(_KEY, metas))
        heads: list[Any] = list(map(_HEADS.get, keys))
        if None in heads:
            heads = [h or header(k) for h, k in zip(heads, keys, strict=True)]
        self.heads = heads
        bases = list(map(id, map(_BASE, metas)))
        ids = list(map(id, ts))
        self.storages = (ids if bases.count(_NONE_ID) == len(bases)
                         else [i if b == _NONE_ID else b for i, b in zip(ids, bases, strict=True)])

    def records(self, paths: Any, refs: Any, roles: Any, owners: Any) -> list[TensorRecord]:
        metas, heads = self.metas, self.heads
        return list(map(_new, repeat(TensorRecord), zip(
            paths, refs, roles, owners, map(_H0, heads), map(_H1, heads), map(_H2, heads),
            map(_H3, heads), map(_H4, heads), map(_RG, metas), map(_LEAF, metas),
            repeat("strided"), map(_H5, heads), self.storages)))


#: a model's devices (sorted), dtypes (in order of first use) and bytes (each storage once),
#: over its parameters and buffers: what its :class:`ObjectRecord` states
Sums = tuple[tuple[str, ...], tuple[str, ...], int]


def read_model(w: Walker, m: Any, path: str, ref: Ref) -> Sums | None:
    """Walk the model ``m`` into ``w`` as ``w.module(m, path, ref, 0, False)`` would, in
    columns, and give its :data:`Sums` (read off the columns: no pass over its records
    again); None (and nothing written) where it is not a plain model."""
    plan = _Plan(w.reader.exact)
    if not plan.module(m, path, ref, 0):
        return None
    ts = plan.ts
    cols = Columns(w, ts)
    if not cols.ok:
        return None
    grads = _grads(w, ts, cols.metas)
    if grads is None:
        return None
    has, gts = grads
    gcols = Columns(w, gts)
    if not gcols.ok:
        return None
    ctx = w.ctx
    spent = plan.nodes + len(ts)  # NB: a grad costs the walker no node
    if ctx.budget < spent:
        return None  # NB: the walker stops where the budget runs out, and says so
    ctx.budget -= spent
    recs = cols.records(plan.paths, plan.refs, plan.column(0), plan.column(1))
    owners = list(compress(plan.paths, has))
    grecs = gcols.records(map("{}.grad".format, owners), map(_grad_ref, compress(plan.refs, has)),
                          repeat("grad"), owners)
    slots: list[Any] = [None] * len(ts)
    for i, g in zip(compress(range(len(ts)), has), grecs, strict=True):
        slots[i] = g
    out = list(filter(None, chain.from_iterable(zip(recs, slots, strict=True)))) if grecs else recs
    _offer(w, plan, recs, slots)
    w.tensors += out
    mods, sums = _module_records(plan.mods, recs, out, has)
    w.modules += mods
    return sums


def _module_records(mods: list[Any], recs: list[TensorRecord], out: list[TensorRecord],
                    has: list[bool]) -> tuple[list[ModuleRecord], Sums]:
    """Each module's aggregate over its subtree (grads aside), and the model's :data:`Sums`:
    ``recs`` are the tensors without their grads, ``out`` with them. NB: where every tensor
    shares one device and dtype and none shares a storage (the usual model), each module's
    sums are differences of prefix sums instead of a pass over its subtree."""
    devices, dtypes = set(map(_DEVICE, recs)), set(map(_DTYPE, recs))
    storages = list(map(_STORAGE, recs))
    if len(devices) > 1 or len(dtypes) > 1 or len(set(storages)) != len(storages):
        before = list(accumulate(has, initial=0))  # NB: grads among the tensors before each
        return ([module_record(p, r, tn, out[s + before[s]:e + before[e]], depth, False, hf)
                 for p, r, tn, depth, hf, s, e in mods],
                (devices_of(devices), uniq(map(_DTYPE, recs)), dedup_bytes(recs)))
    empty = _shared(())
    devs = _shared(tuple(devices))
    floats = _shared(tuple(d for d in dtypes if d.startswith(_FLOATS)))
    total = list(accumulate(map(_NBYTES, recs), initial=0))
    return ([_new(ModuleRecord, (p, r, tn, devs if e > s else empty, floats if e > s else empty,
                                 e - s, total[e] - total[s], depth, False, hf))
             for p, r, tn, depth, hf, s, e in mods],
            (devs, tuple(dtypes), total[-1]))


def _grads(w: Walker, ts: list[Any], metas: list[Any]) -> tuple[list[bool], list[Any]] | None:
    """Which tensors have a grad the walker reads (a leaf that requires grad, or one that
    retains it), and those grads; None where one is not a plain ``Tensor``."""
    keeps = list(map(and_, map(_RG, metas), map(_LEAF, metas)))
    if any(map(gt, map(_RG, metas), map(_LEAF, metas))):  # NB: a non-leaf: only if retained
        keeps = [k or (m[4] and bool(_RETAINS(t)))
                 for k, m, t in zip(keeps, metas, ts, strict=True)]
    got = list(map(_GRAD_OF, compress(ts, keeps)))
    present = list(map(is_not, got, repeat(None)))
    has = keeps.copy()
    for i, p in zip(compress(range(len(ts)), keeps), present, strict=True):
        has[i] = p
    gts = list(compress(got, present))
    exact = w.reader.exact[0]
    for g in gts:
        if type(g) is not exact:
            return None
    return has, gts


def _grad_ref(ref: Ref) -> Ref:
    return (*ref, _GRAD)


def _offer(w: Walker, plan: _Plan, recs: list[TensorRecord], grecs: list[Any]) -> None:
    """The parameters' paths and records, for optimizers, as the walker offers them."""
    params = plan.column(2)
    pts = list(compress(plan.ts, params))
    ids = list(map(id, pts))
    ppaths = list(compress(plan.paths, params))
    ctx = w.ctx
    deque(map(ctx.param_paths.setdefault, ids, ppaths), maxlen=0)
    if w.regs is not None:
        w.regs += zip(ids, ppaths, strict=True)
    ctx.param_records.update(zip(ids, zip(pts, compress(recs, params), compress(grecs, params),
                                            strict=True), strict=True))
