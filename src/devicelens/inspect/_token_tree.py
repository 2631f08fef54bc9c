"""The token of a whole module tree read column by column, at C speed.

:meth:`._token.Tokenizer.module` reads a module the way the walk does, one module at a time;
here every module of a tree is first listed (one short Python step each), then each kind of
thing the walk reads (tables, their keys, parameter and grad headers, plain attributes) is read
for all modules at once with ``map``. NB: anything unusual (a table that is not a ``dict``, a
tensor subclass, a view, a non-leaf that keeps its grad, a module reached twice) returns None
and the caller reads the tree the one-by-one way; the token is then simply different, never
wrong.
"""

from __future__ import annotations

from functools import partial
from itertools import chain, compress, filterfalse, repeat
from operator import and_, attrgetter, is_, is_not, itemgetter, methodcaller, not_
from typing import Any

from . import _types
from ._walk import _META, STD_KEYS, pre_hooks_token

_EMPTY: dict[Any, Any] = {}
_EXTRA = partial(filterfalse, STD_KEYS.__contains__)
_GETITEM = attrgetter("__getitem__")
_RG, _LEAF, _LAYOUT, _BASE = itemgetter(4), itemgetter(5), itemgetter(3), itemgetter(6)
_GRAD = attrgetter("grad")
_TABLE_KEYS = ("_parameters", "_buffers", "_modules")
_TABLES = tuple(methodcaller("get", k) for k in _TABLE_KEYS)
_MAX_MODULES = 100_000


def tree_token(tok: list[Any], pins: list[Any], root: Any, depth: int, trapped: bool,
               reader: Any, inert: frozenset[int]) -> list[Any] | None:
    """Append the token of ``root``'s tree to ``tok``; the plain attributes to read one by one
    (``[(name, value), ...]``, the caller's job), or None: read this tree the slow way."""
    return forest_token(tok, pins, [root], depth, trapped, reader, inert)


def forest_token(tok: list[Any], pins: list[Any], roots: list[Any], depth: int, trapped: bool,
                 reader: Any, inert: frozenset[int]) -> list[Any] | None:
    """:func:`tree_token` of several trees at once: the columns span all of them, so a namespace
    of many small models is read with as few ``map`` calls as one big one."""
    dicts: list[dict[str, Any]] = []
    tables: list[list[dict[Any, Any]]] = [[], [], []]
    modules: list[Any] = []
    sizes: list[Any] = ["levels", *_levels(roots, dicts, tables, modules)]
    if len(sizes) == 1:  # NB: a module reached twice, or something unusual: tree by tree
        dicts, tables, modules, sizes = [], [[], [], []], [], ["trees"]
        for root in roots:
            if _modules(root, dicts, tables, modules) is None:
                return None
            sizes.append(len(modules))
    ids = list(map(id, modules))
    types = list(map(type, modules))
    extras = list(map(list, map(_EXTRA, dicts)))
    keys = list(chain.from_iterable(extras))
    values = list(chain.from_iterable(map(map, map(_GETITEM, dicts), extras)))
    vtypes = list(map(type, values))
    tok.append((depth, trapped, *sizes, *ids, *map(id, types), *map(len, dicts),
                *map(len, extras), *map(id, keys), *map(id, values), *map(id, vtypes)))
    pins += (types, keys, vtypes)
    tok.append(pre_hooks_token(dicts, pins))
    for i, table in enumerate(tables):
        if not _table(tok, pins, table, reader, i < 2):
            return None
    odd = list(compress(range(len(values)), map(not_, map(inert.__contains__,
                                                          map(id, vtypes)))))
    return [(keys[i], values[i]) for i in odd]


def _levels(roots: list[Any], dicts: list[dict[str, Any]], tables: list[list[dict[Any, Any]]],
            mods: list[Any]) -> list[int]:
    """Every module of the trees, level by level across all of them, its ``__dict__`` and its
    three tables: each level read with ``map`` (C speed), no Python step per module. The size
    of each level, or ``[]`` where that is not possible (nothing appended then).

    NB: the tables' lengths (in the token) fix which module holds which children, so level
    order loses nothing. Any module reached twice (shared or cyclic) gives ``[]``.
    """
    level, sizes = roots, []
    while level:
        types = list(map(type, level))  # NB: keyed by id: hashing a type runs its metaclass's
        getters = {i: _types.info(tp)
                   for i, tp in dict(zip(map(id, types), types, strict=True)).items()}
        gets = {i.dict_get for i in getters.values()}
        if len(gets) != 1 or any(i.what != "module" for i in getters.values()) or None in gets:
            break
        ds = list(map(gets.pop(), level))
        if not _types.all_exact(ds, dict):
            break
        # NB: exact dicts (checked above), so ``dict.get`` is their own ``get``, 4x cheaper here
        ts: list[list[Any]] = [list(map(dict.get, ds, repeat(k))) for k in _TABLE_KEYS]
        if not all(map(_plain_tables, ts)):
            break
        mods += level
        dicts += ds
        for k in range(3):
            tables[k] += ts[k]
        sizes.append(len(level))
        if len(mods) > _MAX_MODULES:
            break
        level = list(chain.from_iterable(map(dict.values, ts[2])))
    else:
        if len(set(map(id, mods))) == len(mods):
            return sizes
    del mods[:], dicts[:]
    for col in tables:
        del col[:]
    return []


def _plain_tables(col: list[Any]) -> bool:
    """Whether every table is a dict or absent (then read as empty, in place).
    NB: types only: no ``==`` on a user object."""
    types = list(map(type, col))
    if _types.count_exact(types, dict) == len(col):
        return True
    if _types.count_exact(types, dict, type(None)) != len(col):
        return False
    col[:] = [_EMPTY if t is None else t for t in col]
    return True


def _modules(root: Any, dicts: list[dict[str, Any]], tables: list[list[dict[Any, Any]]],
             mods: list[Any]) -> bool | None:
    """Append every module of ``root``'s tree (breadth first), its ``__dict__`` and its three
    tables; None where the tree is not plain."""
    start = len(mods)
    mods.append(root)
    seen: set[int] = set()
    i = start
    while i < len(mods):
        m = mods[i]
        i += 1
        if id(m) in seen or i - start > _MAX_MODULES:
            return None  # NB: shared or cyclic: the one-by-one reading handles both
        seen.add(id(m))
        info = _types.info(type(m))
        if info.what != "module" or info.dict_get is None:
            return None
        d = info.dict_get(m)
        if type(d) is not dict:
            return None
        dicts.append(d)
        for k, get in enumerate(_TABLES):
            t = get(d)
            if t is None:
                t = _EMPTY
            elif type(t) is not dict:
                return None
            tables[k].append(t)
        kids = tables[2][-1]
        if kids:
            mods.extend(kids.values())
    return True


def _table(tok: list[Any], pins: list[Any], table: list[dict[Any, Any]], reader: Any,
           tensors: bool) -> bool:
    keys = list(chain.from_iterable(table))
    values = list(chain.from_iterable(map(dict.values, table)))
    vtypes = list(map(type, values))
    tok.append((*map(len, table), *map(id, keys), *map(id, values), *map(id, vtypes)))
    pins += (keys, vtypes)
    if not _types.all_exact(keys, str):
        return False
    if not tensors:
        return True
    present = list(compress(values, map(is_not, values, repeat(None))))
    exact0, exact1 = reader.exact
    if _types.count_exact(vtypes, exact0, exact1) != len(present):
        return False
    return _headers(tok, present, reader)


def _plain_metas(tensors: list[Any], reader: Any) -> list[Any] | None:
    """The tensors' headers when every one is a strided non-view; None otherwise (then the
    caller reads them one by one)."""
    try:
        metas = list(map(_META, tensors))
    except RuntimeError:
        return None
    n = len(metas)
    if (list(map(is_, map(_BASE, metas), repeat(None))).count(True) != n
            or list(map(_LAYOUT, metas)).count(reader.strided) != n):
        return None
    return metas


def _headers(tok: list[Any], tensors: list[Any], reader: Any) -> bool:
    """Parameter/buffer headers, then their grads' (where the walk reads one)."""
    metas = _plain_metas(tensors, reader)
    if metas is None:
        return False
    rg = list(map(_RG, metas))
    leaf = list(map(_LEAF, metas))
    if list(map(and_, rg, map(not_, leaf))).count(True):
        return False  # NB: a non-leaf that may retain its grad: one by one
    grads = list(map(_GRAD, compress(tensors, map(and_, rg, leaf))))
    tok.append((metas, *map(id, grads)))
    present = list(compress(grads, map(is_not, grads, repeat(None))))
    if present:
        gtypes = list(map(type, present))
        if _types.count_exact(gtypes, reader.exact[0]) != len(present):
            return False
        gmetas = _plain_metas(present, reader)
        if gmetas is None:
            return False
        tok.append(gmetas)
    return True


def optimizer_token(tok: list[Any], pins: list[Any], groups: Any, by_id: dict[int, Any],
                    paths: dict[int, str], reader: Any) -> bool:
    """An optimizer's token column by column (as :meth:`._token.Tokenizer.optimizer` reads it
    one parameter at a time); False where it is not plain (then nothing was appended)."""
    if type(groups) is not list or not _types.all_exact(groups, dict):
        return False
    lists = list(map(methodcaller("get", "params"), groups))
    if not _types.all_exact(lists, list):
        return False
    params = list(chain.from_iterable(lists))
    ids = list(map(id, params))
    exact0, exact1 = reader.exact
    ptypes = list(map(type, params))
    if _types.count_exact(ptypes, exact0, exact1) != len(params):
        return False
    states: list[Any] = list(map(by_id.get, ids))
    if not _types.all_exact(states, dict):
        return False  # NB: a parameter without state yet: one by one
    keys = list(chain.from_iterable(states))
    values = list(chain.from_iterable(map(dict.values, states)))
    vtypes = list(map(type, values))
    if (not _types.all_exact(keys, str)
            or _types.count_exact(vtypes, exact0, exact1) != len(values)):
        return False
    start, n_pins = len(tok), len(pins)
    tok.append((len(by_id), *map(len, lists), *ids, *map(id, ptypes), *map(paths.get, ids),
                *map(id, states), *map(len, states), *keys, *map(id, values),
                *map(id, vtypes)))
    pins += (ptypes, vtypes)
    if not _headers(tok, params, reader) or not _state_headers(tok, values, reader):
        del tok[start:], pins[n_pins:]
        return False
    return True


def _state_headers(tok: list[Any], tensors: list[Any], reader: Any) -> bool:
    """State tensors' headers (no grad is ever read for them)."""
    metas = _plain_metas(tensors, reader)
    if metas is None:
        return False
    tok.append(metas)
    return True
