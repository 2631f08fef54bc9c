"""What a walk of one namespace value reads, as a flat token: equal tokens, equal records.

:mod:`._objects` walks a value into records; :func:`token` reads the same things in the same
order (identities, types, dict keys, scalar values, tensor headers) without building any record.
Two walks whose tokens are equal produce equal records, so the panel re-walks only the names
whose token changed. NB: every value compared is an ``int`` (an id), a plain scalar or a torch
header value, never a user object (whose ``__eq__`` could run); ids are compared only for
objects kept alive in ``pins`` (types, keys) or for values whose records carry no more than what
the token holds beside the id (a reused id then means equal records all the same).
"""

from __future__ import annotations

from itertools import filterfalse, repeat
from operator import is_, itemgetter
from typing import Any

from . import _tree, _types
from ._objects import (
    held_models,
    hollow_optimizer,
    optimizer_params,
    optimizer_state,
    wrapped_optimizer,
)
from ._token_tree import forest_token as _forest
from ._token_tree import optimizer_token as _optimizer_columns
from ._token_tree import tree_token
from ._walk import _META, MAX_DEPTH, MAX_WIDTH, STD_KEYS, Ctx, pre_hooks_token, read_meta

Token = list[Any]
#: types whose values a walk never looks into (module attributes such as ``in_features``)
_INERT_IDS = frozenset(map(id, (int, float, str, bool, type(None), bytes, complex)))
_BASE, _LAYOUT = itemgetter(6), itemgetter(3)


def _IS_STR(k: Any) -> bool:
    return type(k) is str


class Tokenizer:
    """Reads one value the way :class:`._walk.Walker` does. ``pins`` keeps alive the types and
    keys whose ids the token holds, so that those ids cannot be reused meanwhile."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.reader = ctx.reader
        self.tok: Token = []
        self.pins: list[Any] = []
        self.seen: set[int] = set()

    def ident(self, v: Any) -> None:
        tp = type(v)
        if tp is int or tp is str or tp is bool or tp is float or v is None:
            self.tok.append((tp is bool, v))  # NB: 1 == True: the flag keeps them apart
        else:
            self.tok.append((id(tp), id(v)))
            self.pins.append(tp)

    def tensor(self, t: Any, role: str = "") -> None:
        """The header of ``t`` (and of its grad, where the walk records one)."""
        reader = self.reader
        tp = type(t)
        m = None
        if tp is reader.exact[0] or tp is reader.exact[1]:
            try:
                m = _META(t)
            except RuntimeError:  # NB: a nested tensor: read as the walk does
                m = None
        if m is None or m[6] is not None:  # NB: never keep a base tensor, only its id
            m = read_meta(reader, t)
            if m is None:
                self.tok.append((None, id(t), reader.opaque_device(t)))
                return
        self.tok.append(m)
        if role != "state" and role != "grad":
            g = reader.grad(t, m)
            if g is not None:
                self.ident(g)
                self.tensor(g, "grad")

    def value(self, obj: Any, depth: int, role: str) -> None:
        what = _types.info(type(obj)).what
        if what == "tensor":
            self.tensor(obj, role)
        elif what == "module":
            self.tree(obj, 0, role != "tensor")
        elif what and what != "optimizer" and depth < MAX_DEPTH:
            self.container(obj, what, depth, role)

    def container(self, obj: Any, kind: str, depth: int, role: str) -> None:
        if id(obj) in self.seen:
            self.tok.append("seen")
            return
        self.seen.add(id(obj))
        tok = self.tok
        tok.append(_tree.container_len(obj, kind) > MAX_WIDTH if kind != "dataclass" else 0)
        for step, child in _tree.iter_children(obj, kind, MAX_WIDTH):
            # NB: a step holds a scalar key or a position, never an object; 1 == True, not here
            tok.append((step, type(step.key) is bool))
            self.ident(child)
            self.value(child, depth + 1, role)
        tok.append("end")
        self.seen.discard(id(obj))

    def tree(self, m: Any, depth: int, trapped: bool) -> None:
        """A module and everything under it: column by column where the tree is plain
        (:mod:`._token_tree`), else one module at a time."""
        if id(m) in self.seen:
            self.tok.append("seen")
            return
        n_tok, n_pins = len(self.tok), len(self.pins)
        odd = tree_token(self.tok, self.pins, m, depth, trapped, self.reader, _INERT_IDS)
        if odd is None:
            del self.tok[n_tok:], self.pins[n_pins:]
            self.module(m, depth, trapped)
            return
        self.seen.add(id(m))
        if odd:
            names, values = zip(*odd, strict=True)
            self._attrs(names, values)
        self.tok.append("end")
        self.seen.discard(id(m))

    def module(self, m: Any, depth: int, trapped: bool) -> None:
        if id(m) in self.seen:
            self.tok.append("seen")
            return
        self.seen.add(id(m))
        tok, pins = self.tok, self.pins
        tp = type(m)
        d = _tree.script_view(_types.instance_dict(m) or {})
        extra = list(filterfalse(STD_KEYS.__contains__, d))
        values = list(map(d.__getitem__, extra))
        types = list(map(type, values))
        tables = (d.get("_parameters"), d.get("_buffers"), d.get("_modules"))
        # NB: a TorchScript module's tables are built afresh on each read: only their contents
        # (tokened below) say whether it changed
        ids = (0, 0, 0) if _tree.SCRIPT in d else map(id, tables)
        # NB: identities and type identities at C speed; the types and keys stay pinned
        tok.append((id(tp), depth, trapped, len(d), *ids, *map(id, extra),
                    *map(id, values), *map(id, types)))
        pins += (tp, extra, types, *map(type, tables))
        tok.append(pre_hooks_token([d], pins))
        for entries, table in zip(tables, ("_parameters", "_buffers", "_modules"), strict=True):
            if entries and issubclass(type(entries), dict):
                self._table(entries, table, depth, trapped)
        if not _INERT_IDS.issuperset(map(id, types)):
            self._attrs(extra, values)
        tok.append("end")
        self.seen.discard(id(m))

    def _attrs(self, extra: Any, values: Any) -> None:
        for name, v in zip(extra, values, strict=True):
            if type(name) is not str:
                continue
            what = _types.info(type(v)).what
            if what == "tensor":
                self.tensor(v)
            elif name[:1] != "_" and what and what not in ("module", "optimizer"):
                self.container(v, what, 1, "trapped")

    def _table(self, entries: dict[Any, Any], table: str, depth: int, trapped: bool) -> None:
        keys = list(dict.keys(entries))
        values = list(dict.values(entries))
        types = list(map(type, values))
        self.tok.append((*map(id, keys), *map(id, values), *map(id, types)))
        self.pins += (keys, types)
        if table == "_modules":
            for name, v in zip(keys, values, strict=True):
                if v is not None and type(name) is str and _types.info(type(v)).what == "module":
                    self.module(v, depth + 1, trapped)
            return
        exact = self.reader.exact
        if _types.count_exact(types, *exact) == len(types) and all(
                map(_IS_STR, keys)):
            self._exact(values)
            return
        for name, v in zip(keys, values, strict=True):
            if v is not None and type(name) is str and _types.info(type(v)).what == "tensor":
                self.tensor(v)

    def _exact(self, tensors: list[Any]) -> None:
        """Headers of exact ``Tensor``/``Parameter``s in one C pass (as the walk's fast path):
        plain when none is a view, nested or of another layout; then each grad there is."""
        try:
            metas = list(map(_META, tensors))
        except RuntimeError:  # NB: a nested tensor: one by one, as the walk does
            metas = []
        n = len(tensors)
        if (len(metas) != n or list(map(is_, map(_BASE, metas), repeat(None))).count(True) != n
                or list(map(_LAYOUT, metas)).count(self.reader.strided) != n):
            for t in tensors:
                self.tensor(t)
            return
        self.tok += metas
        for t, m in zip(tensors, metas, strict=True):
            if m[4] and (m[5] or t.retains_grad):
                g = t.grad
                if g is not None:
                    self.ident(g)
                    self.tensor(g, "grad")

    def optimizer(self, opt: Any) -> None:
        groups, by_id = optimizer_state(opt)
        paths = self.ctx.param_paths
        tok = self.tok
        if _optimizer_columns(tok, self.pins, groups, by_id, paths, self.reader):
            return
        tok.append(len(by_id))
        for g, i, p in optimizer_params(groups):
            tok.append((g, i, paths.get(id(p), "")))
            self.ident(p)
            self.tensor(p)
            pstate = by_id.get(id(p))
            self.ident(pstate)
            if pstate is None or not issubclass(type(pstate), dict):
                continue
            for key, v in list(dict.items(pstate)):  # NB: copied first: step() may add to it
                self.ident(key)
                self.ident(v)
                if type(key) is str and _types.info(type(v)).what == "tensor":
                    self.tensor(v, "state")
        tok.append("end")


def token(ctx: Ctx, obj: Any) -> tuple[Token, list[Any]]:
    """The token of ``obj`` as a namespace value, and what it pins."""
    t = Tokenizer(ctx)
    info = _types.info(type(obj))
    t.ident(obj)
    if info.what == "module":
        t.tree(obj, 0, False)
        d = _types.instance_dict(obj) or {}
        t.tok.append((_wrapper(d) if info.name in _WRAPPERS else None,
                      _device_map(d.get("hf_device_map"))))
    elif info.what == "optimizer" and not hollow_optimizer(obj):
        t.optimizer(obj)
    elif info.what == "tensor":
        t.tensor(obj)
    elif info.what and info.what != "optimizer":
        t.container(obj, info.what, 0, "tensor")
    else:  # NB: a plain object's record is the optimizer it wraps, if any: read as its walk is
        inner = wrapped_optimizer(obj)
        if inner is not None:
            t.tok.append(inner[0])
            t.ident(inner[1])
            t.optimizer(inner[1])
            for attr, m in held_models(obj):  # NB: they name the optimizer's parameters
                t.tok.append(attr)
                t.ident(m)
                t.tree(m, 0, False)
    return t.tok, t.pins


_WRAPPERS = ("DataParallel", "DistributedDataParallel")


def _wrapper(d: dict[str, Any]) -> Any:
    """A DataParallel's device_ids and output_device, by value (the record keeps both)."""
    ids, out = d.get("device_ids"), d.get("output_device")
    return (tuple(i for i in list.__iter__(ids) if type(i) is int) if type(ids) is list else (),
            out if type(out) is int else None)


def _device_map(devmap: Any) -> Any:
    if type(devmap) is not dict:
        return None
    return frozenset((type(v) is str, v) for v in dict.values(devmap)
                     if type(v) is int or type(v) is str)


def forest_token(ctx: Ctx, named: list[tuple[str, Any]]) -> tuple[Token | None, list[Any]]:
    """One token for several module names (None: a tree is not plain, read them one by one)."""
    t = Tokenizer(ctx)
    t.tok.append(tuple(name for name, _m in named))
    roots = [m for _name, m in named]
    odd = _forest(t.tok, t.pins, roots, 0, False, t.reader, _INERT_IDS)
    if odd is None:
        return None, []
    if odd:
        t._attrs([k for k, _v in odd], [v for _k, v in odd])
    for m in roots:  # NB: what the record reads beside the tree (see token())
        d = _types.instance_dict(m) or {}
        t.tok.append((_wrapper(d) if _types.info(type(m)).name in _WRAPPERS else None,
                      _device_map(d.get("hf_device_map"))))
    return t.tok, t.pins
