"""Turn a walk into an executable :class:`Plan`: distinct tensors and their targets, optimizer
state and gradients that follow their parameters, storage groups (aliases and views move as one),
immutable containers to rebuild and the references to rebind. Pure: changes nothing.
"""

from __future__ import annotations

import collections
import types
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import is_not
from typing import Any

from ..inspect import _tree
from ..inspect._tree import Ref, Step
from ._aliases import not_moved_note
from ._containers import Node, Slot
from ._layout import groupable, span, storage_key, strided_copy
from ._loose import Loose
from ._plan import Occ, Target, Walker, optimizer_params
from ._row import Move, Rows

MISSING = object()


class Entry:
    """One distinct tensor (by identity). ``device``/``dtype`` None: that part does not change."""

    __slots__ = ("device", "dtype", "grad", "inplace", "notes", "ref", "seq", "slots", "t",
                 "unit")

    def __init__(self, t: Any, ref: Ref, unit: str, seq: int = 0) -> None:
        self.t = t
        self.seq = seq  # NB: where its row goes among the names moved as columns
        self.ref = ref
        self.unit = unit
        self.device: Any = None
        self.dtype: Any = None
        self.inplace = False
        self.slots: dict[tuple[str, int, Any], Slot] = {}
        self.notes: list[str] = []
        self.grad: Any = None  # the .grad an in-place tensor carries along

    @property
    def changes(self) -> bool:
        return self.device is not None or self.dtype is not None

    @property
    def path(self) -> str:
        return _tree.display_for(self.ref)


class Literal:
    """A plain value to assign (DataParallel bookkeeping)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class Plan:
    """Everything :mod:`devicelens.moves._apply` needs; holds the user's objects until applied."""

    namespace: dict[str, Any]
    target: str
    entries: list[Entry] = field(default_factory=list)
    groups: list[list[Entry]] = field(default_factory=list)
    group_bytes: list[int] = field(default_factory=list)
    assigns: list[tuple[Slot, Any, Any]] = field(default_factory=list)  # slot, producer, old
    anchors: list[tuple[dict[str, Any], str, Any]] = field(default_factory=list)
    rows: list[Move] = field(default_factory=list)
    bytes_by_device: dict[str, int] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failure: str | None = None
    spent: bool = False
    rnns: list[Any] = field(default_factory=list)  # RNN modules whose weights may be swapped
    graphs: list[str] = field(default_factory=list)  # names of tensors that hold a graph
    loose: Loose | None = None  # names bound to plain tensors, moved as columns (._loose)
    seqs: list[int] = field(default_factory=list)  # of each row: the column names before it

    @property
    def total(self) -> int:
        return sum(self.group_bytes) + (self.loose.total if self.loose is not None else 0)

    def moved(self) -> tuple[Move, ...] | Rows:
        """Every row of the report: the general rows among the columns' rows, a row whose
        ``seq`` is k before the k-th column name's, as one walk of the whole selection would
        have ordered them (:class:`~._row.Rows`, made as read)."""
        if self.loose is None:
            return tuple(self.rows)
        return self.loose.rows(self.rows, self.seqs)


def finalize(torch: Any, w: Walker, target: str, anchors: list[tuple[dict[str, Any], str, Any]],
             optimizers: list[tuple[Any, Ref]] | None = None, loose: Loose | None = None,
             ) -> Plan:
    """``optimizers``: every optimizer the namespace binds (:func:`namespace_optimizers`), when
    the caller has them; ``loose``: the names that move as columns, whose rows join the
    others' in selection order."""
    entries: dict[int, Entry] = {}
    shared: list[str] = []
    for o, seq in zip(w.occ, w.seqs(), strict=True):
        _merge(entries, o, w, shared, seq)
    w.seq = len(loose) if loose is not None else 0  # NB: what follows comes after every name
    _optimizer_state(torch, w, entries, shared,
                     namespace_optimizers(w) if optimizers is None else optimizers)
    _grads(entries, w, shared)
    changing = [e for e in entries.values() if e.changes]
    plan = Plan(w.ns, target, changing, anchors=anchors,
                refused=list(w.refused) + _out_of_meta(changing), rnns=list(w.rnns.values()))
    plan.graphs = list(dict.fromkeys(_tree.display_for(o.ref) for o in w.occ
                                     if o.t.requires_grad and not o.t.is_leaf))
    plan.groups, plan.group_bytes = _groups(torch, changing)
    plan.assigns = _assigns(w, changing, entries)
    plan.rows, plan.seqs, plan.bytes_by_device = _rows(plan)
    plan.rows += [Move(*r) for r in w.extra_rows]
    plan.seqs += [w.seq] * len(w.extra_rows)
    if loose is not None and loose.names:
        plan.loose = loose
        dev = str(loose.device)
        plan.bytes_by_device[dev] = plan.bytes_by_device.get(dev, 0) + loose.total
    plan.notes = _notes(w, changing, shared)
    return plan


def _out_of_meta(changing: list[Entry]) -> list[tuple[str, str]]:
    """Refusals for copies out of meta, decided here rather than as a raise mid-move.

    NB: a meta tensor holds only its shape: ``.to("cpu")`` raises "Cannot copy out of meta
    tensor". The fix is to move the other side to meta, or to create or load this one again.
    """
    out: dict[str, str] = {}
    for e in changing:
        if e.device is not None and e.device.type != "meta" and e.t.device.type == "meta":
            out.setdefault(e.unit, (
                f"is on meta, which holds no data, so it cannot be copied to {e.device} "
                f"({e.path}); move the rest to meta instead, or create or load it again on "
                f"{e.device} (load_state_dict(..., assign=True))"))
    return list(out.items())


def _want(target: Target, t: Any) -> tuple[Any, Any]:
    dev = target.device if target.device is not None and t.device != target.device else None
    dt = None
    if target.dtype is not None and t.dtype != target.dtype and t.is_floating_point():
        dt = target.dtype
    return dev, dt


def _merge(entries: dict[int, Entry], o: Occ, w: Walker, shared: list[str], seq: int) -> None:
    t = o.t
    if id(t) in w.protected:
        shared.append(_tree.display_for(o.ref))
        return
    e = entries.get(id(t))
    if e is None:
        e = entries[id(t)] = Entry(t, o.ref, o.unit, seq)
    e.inplace |= o.inplace
    dev, dt = o.explicit if o.explicit is not None else _want(o.target or Target(), t)
    if dev is not None and e.device is None:
        e.device = dev
    if dt is not None and e.dtype is None:
        e.dtype = dt
    if o.slot is not None:
        e.slots.setdefault((o.slot.kind, id(o.slot.holder), o.slot.key), o.slot)
    if o.note and o.note not in e.notes:
        e.notes.append(o.note)


# --- things that follow their parameter ----------------------------------------------------

def _optimizer_state(torch: Any, w: Walker, entries: dict[int, Entry], shared: list[str],
                     found: list[tuple[Any, Ref]]) -> None:
    """Optimizer state goes to its parameter's (final) device, the way PyTorch's
    ``load_state_dict`` places it. NB: ``step`` and 0-dim CPU scalars stay on the CPU unless the
    group is capturable or fused."""
    for opt, ref in found:
        if id(opt) not in w.optimizers:
            w.optimizers[id(opt)] = (opt, ref, "follow", _tree.display_for(ref))
    for opt, ref, mode, unit in list(w.optimizers.values()):
        d = _tree.instance_dict(opt) or {}
        state: Any = d.get("state")
        groups: Any = d.get("param_groups")
        if not issubclass(type(state), dict) or type(groups) is not list:
            continue
        for g, i, p in optimizer_params(opt, w.Tensor):
            if w.trust(type(p)):
                continue
            pe = entries.get(id(p))
            moving = pe is not None and pe.changes
            pstate: Any = dict.get(state, p)
            if (mode == "follow" and not moving) or not issubclass(type(pstate), dict):
                continue
            group = groups[g]
            special = bool(dict.get(group, "capturable") or dict.get(group, "fused"))
            pdev = pe.device if pe is not None and pe.device is not None else p.device
            pdt = pe.dtype if pe is not None and pe.dtype is not None else p.dtype
            dtype_follows = mode == "state" or (pe is not None and pe.dtype is not None)
            for k, v in list(dict.items(pstate)):
                if not issubclass(type(v), w.Tensor) or w.trust(type(v)):
                    continue
                scalar = k == "step" or (v.dim() == 0 and v.device.type == "cpu")
                if scalar and not special:
                    continue
                dev = pdev if v.device != pdev else None
                dt = None
                if (not scalar and dtype_follows and v.is_floating_point()
                        and p.is_floating_point() and v.dtype != pdt):
                    dt = pdt
                sref = (*ref, Step("state", (g, i)), Step("item", k))
                _merge(entries, Occ(v, Slot("map", pstate, k), sref, False, None, unit, "",
                                    (dev, dt)), w, shared, w.seq)


def namespace_optimizers(w: Walker) -> list[tuple[Any, Ref]]:
    """Every optimizer the namespace binds to a name or holds in a plain wrapper object. NB: the
    names bound to a plain tensor (most, in a big namespace) are passed over at C speed."""
    others = compress(dict.items(w.ns), map(is_not, map(type, dict.values(w.ns)),
                                            repeat(w.Tensor)))
    return [found for name, v in others for found in _optimizers_at(w, name, v)]


def _optimizers_at(w: Walker, name: str, v: Any) -> list[tuple[Any, Ref]]:
    """The optimizer bound to ``name``, or one a plain wrapper object holds (Lightning Fabric's
    ``optimizer.optimizer``). NB: read through the instance dict, never a property."""
    root: Ref = (Step("name", name),)
    if issubclass(type(v), w.Optimizer):
        return [(v, root)]
    if (issubclass(type(v), w.Module) or _tree.container_kind(v) not in (None, "namespace")
            or issubclass(type(v), (type, types.ModuleType, types.FunctionType))):
        return []
    return [(x, (*root, Step("attr", k))) for k, x in (_tree.instance_dict(v) or {}).items()
            if type(k) is str and issubclass(type(x), w.Optimizer)]


def _grads(entries: dict[int, Entry], w: Walker, shared: list[str]) -> None:
    """A leaf's ``.grad`` goes wherever (and whatever dtype) its tensor goes."""
    for e in list(entries.values()):
        t = e.t
        if not e.changes or not t.is_leaf or t.grad is None:
            continue
        g = t.grad
        why = w.trust(type(g))
        if why:  # NB: a leaf moves with its grad or not at all
            e.device = e.dtype = None
            w.refused.append((e.path, f"its .grad cannot be moved safely: {why}"))
            continue
        e.grad = g
        dev = e.device if e.device is not None and g.device != e.device else None
        dt = e.dtype if e.dtype is not None and g.dtype != e.dtype else None
        gref = (*e.ref, Step("attr", "grad", "grad"))
        _merge(entries, Occ(g, Slot("grad", t, None), gref, False, None, e.unit, "", (dev, dt)),
               w, shared, w.seq)


# --- storage groups -----------------------------------------------------------------------

def _groups(torch: Any, changing: list[Entry]) -> tuple[list[list[Entry]], list[int]]:
    """Entries sharing one storage (aliases, views, ``detach()``es) move as one copy of it, and
    a cast of several views of one storage casts that storage once.
    NB: a lone view moves as the span of its storage it reaches, strides kept."""
    order: dict[Any, list[Entry]] = {}
    for e in changing:
        key: Any = ("single", id(e.t))
        if groupable(torch, e.t):
            k = storage_key(e.t)
            if k is not None:
                key = (k,) if e.dtype is None else (k, e.t.dtype, e.dtype)
        order.setdefault(key, []).append(e)
    groups: list[list[Entry]] = []
    sizes: list[int] = []
    for es in order.values():
        if len(es) > 1 and len({str(e.device) for e in es}) == 1 and _whole(es):
            groups.append(es)
            nbytes = int(es[0].t.untyped_storage().nbytes())
            if es[0].dtype is not None:
                nbytes = nbytes // es[0].t.dtype.itemsize * es[0].dtype.itemsize
            sizes.append(nbytes)
        else:
            for e in es:
                groups.append([e])
                dt = e.dtype if e.dtype is not None else e.t.dtype
                n = span(e.t) if strided_copy(torch, e.t) else int(e.t.numel())
                sizes.append(n * int(dt.itemsize))
    return groups, sizes


def _whole(es: list[Entry]) -> bool:
    """Whether the shared storage can be copied whole: a cast reads it as whole elements."""
    t = es[0].t
    return es[0].dtype is None or t.untyped_storage().nbytes() % t.dtype.itemsize == 0


# --- references ---------------------------------------------------------------------------

def read_slot(slot: Slot, old: Any) -> Any:
    """The object ``slot`` holds now (``MISSING`` if gone); sets answer ``old`` if present."""
    kind, h, key = slot
    try:
        if kind == "map":
            return dict.get(h, key, MISSING)
        if kind == "list":
            return list.__getitem__(h, key) if key < list.__len__(h) else MISSING
        if kind == "deque":
            return collections.deque.__getitem__(h, key) if key < collections.deque.__len__(
                h) else MISSING
        if kind == "set":
            return old if set.__contains__(h, old) else MISSING
        if kind == "member":
            return _tree._type_dict_lookup(type(h), key).__get__(h, type(h))
        if kind == "grad":
            return h.grad
    except Exception:
        return MISSING
    raise AssertionError(f"no reader for slot kind {kind}")


def _assigns(w: Walker, changing: list[Entry], entries: dict[int, Entry],
             ) -> list[tuple[Slot, Any, Any]]:
    seen: set[tuple[int, str, int, Any]] = set()
    for node, slot in w.links:  # NB: by identity: holders are user dicts that must not compare
        key = (id(node), slot.kind, id(slot.holder), slot.key)
        if key not in seen:
            seen.add(key)
            node.parents.append(slot)
    out: list[tuple[Slot, Any, Any]] = []

    def mark(slot: Slot, prod: Any, old: Any) -> None:
        if slot.kind == "node":
            node: Node = slot.holder
            node.replace[slot.key] = prod
            if not node.dirty:
                node.dirty = True
                for ps in node.parents:
                    mark(ps, node, node.obj)
        elif slot.kind == "grad":
            holder = entries.get(id(slot.holder))
            if holder is None or not holder.changes:  # NB: moving holders carry their grad
                out.append((slot, prod, old))
        else:
            out.append((slot, prod, old))

    for e in changing:
        if not e.inplace:
            for s in e.slots.values():
                mark(s, e, e.t)
    for slot, value in w.literals:
        out.append((slot, Literal(value), read_slot(slot, None)))
    return out


# --- report material ----------------------------------------------------------------------

def _label(device: Any, dtype: Any) -> str:
    dt = str(dtype).removeprefix("torch.") if dtype is not None else ""
    return " ".join(x for x in (str(device) if device is not None else "", dt) if x)


def _rows(plan: Plan) -> tuple[list[Move], list[int], dict[str, int]]:
    """The report's rows (one per unit and change), the ``seq`` of each, bytes by device."""
    agg: dict[tuple[Any, ...], list[int]] = {}
    by_dev: dict[str, int] = {}
    for group, nbytes in zip(plan.groups, plan.group_bytes, strict=True):
        for k, e in enumerate(group):
            t = e.t
            key = (e.unit, t.device if e.device is not None else None,
                   t.dtype if e.dtype is not None else None, e.device, e.dtype)
            row = agg.get(key)
            if row is None:
                row = agg[key] = [0, 0, group[0].seq]  # NB: a group is where its first is
            row[0] += nbytes if k == 0 else 0
            row[1] += 1
        dev = str(group[0].device if group[0].device is not None else group[0].t.device)
        by_dev[dev] = by_dev.get(dev, 0) + nbytes
    rows = [Move(u, _label(sd, st), _label(dd, dt), b, n, None if dd is None else str(dd),
                 None if dt is None else str(dt).removeprefix("torch."))
            for (u, sd, st, dd, dt), (b, n, _s) in agg.items()]
    return rows, [s for _b, _n, s in agg.values()], by_dev


def _notes(w: Walker, changing: list[Entry], shared: list[str]) -> list[str]:
    notes: dict[str, None] = dict.fromkeys(w.notes)
    for note in (w.aliases.note() if w.aliases is not None else None,
                 not_moved_note([r for r, _ in w.left], w.left[0][1].code() if w.left else "")):
        if note is not None:
            notes[note] = None
    detached: list[str] = []
    for e in changing:
        if any(n for n in e.notes):
            notes.update(dict.fromkeys(e.notes))
        if not e.inplace and e.t.requires_grad and not e.t.is_leaf:
            detached.append(e.path)
    if detached:
        notes[f"{_few(detached)} {'was' if len(detached) == 1 else 'were'} part of an autograd "
              f"graph; the moved copies are detached (re-run the forward pass)."] = None
    if shared:
        notes[f"{_few(shared)} {'is' if len(shared) == 1 else 'are'} shared with a refused "
              f"object and stayed where {'it was' if len(shared) == 1 else 'they were'}."] = None
    return list(notes)


def _few(paths: list[str]) -> str:
    paths = list(dict.fromkeys(paths))
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
