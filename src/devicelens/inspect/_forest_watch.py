"""Proof that the namespace's module trees read as they did at the last push, cheaper than
their token.

:func:`._token.forest_token` builds one flat token of every module: the ids of every key, value
and type, and every parameter's header. Here the same facts are compared column by column
against the last push, each with the cheapest read that proves it: modules by weak reference
(never kept alive); every ``__dict__`` and table by its version (:mod:`._versions`: equal, the
same keys and values), or, where a version changed, their keys as one string and the extra
(non-standard) values' types; the parameters' and grads' types, ids and headers
(:mod:`._tensor_list`). Extra values that a walk looks into (tensors, containers) are tokened
again as the walk reads them, but for tuples of plain scalars while every dict's version is
unchanged (the very same immutable object tokens the same). Grads replaced by equal ones (a
training step) are told apart from a change: the caller moves them in its records instead of
walking the trees again.

NB: tensors are never weakly referenced: ``torch.utils.swap_tensors`` (``Module.to`` under
``swap_module_params_on_conversion``, ``load_state_dict(assign=True)``) refuses a tensor that
has a weak reference, and it can change the layout and view base of the very same object, so
every header is checked whole: by torch's tensor guard and the reads beside it (:mod:`._headers`),
or read as the token reads it where no guard is kept.

NB: a watch is only a shortcut. :meth:`ForestWatch.same` answers True only when the token
would be equal (and names moved grads only where it would differ in nothing else); anything it
does not cover (a table that is not a ``dict``, a wrapper, an ``hf_device_map``, a key with a
NUL in it) makes it keep no state, and the caller reads the token. A ``None`` entry in a table
(``Linear(bias=False)``) is covered: which entries are None is kept as a mask.
"""

from __future__ import annotations

import weakref
from itertools import chain, compress, repeat
from operator import call, is_, itemgetter, not_
from typing import Any, NamedTuple

from . import _tensor_list, _types
from ._tensor_list import Regrad, Tensors
from ._token import _INERT_IDS, _WRAPPERS, Tokenizer
from ._token_tree import _TABLE_KEYS, _levels, _plain_tables
from ._versions import reader
from ._walk import STD_KEYS, Ctx, pre_hooks_token

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_SEP = "\0"
_ref = weakref.ref


class _Table(NamedTuple):
    """One kind of table (``_parameters`` or ``_buffers``) across every module."""

    lens: list[int]
    keys: str
    tensors: Tensors  # the entries that are not None, in order
    # NB: where the entries are None (``Linear(bias=False)``, ``MultiheadAttention``'s unused
    # projections), as a mask over every entry in order; empty: none is
    nones: list[bool]


class _Seen(NamedTuple):
    names: list[str]
    sizes: list[int]  # modules per level
    refs: list[Any]  # weak references to every module, level by level
    types: list[type]  # NB: kept alive, so compared by identity
    dict_lens: list[int]
    dict_keys: str
    extra_counts: list[int]  # how many extra (non-standard) keys each dict has
    extra_keys: list[str]  # and which, dict after dict
    extra_types: list[type]
    odd: list[int]  # which extras a walk looks into, their ids, and what their token was
    odd_dicts: list[int]  # and which dict holds each
    odd_names: list[str]
    odd_ids: list[int]
    odd_tok: list[Any]
    odd_pins: list[Any]
    # NB: which of them are no tuple of plain scalars, and their own token: while every dict is
    # unchanged (versions), a tuple bound there is the very tuple, so its token is too. That
    # token reads the same values as ``odd_tok``: what its ids need kept alive, odd_pins keeps
    odd_live: list[int]
    odd_live_tok: list[Any]
    modules_lens: list[int]
    modules_keys: str
    tables: tuple[_Table, _Table]
    dict_get: Any  # the one ``__dict__`` getter of every module type (None: versions unused)
    versions: list[int] | None  # every ``__dict__``'s and table's version (:mod:`._versions`)
    # NB: the modules' forward pre-hooks by identity (:func:`._walk.pre_hooks_token`): no
    # version above changes when one is registered; the hooks it names are kept alive
    hooks: tuple[int, ...]
    hooks_pins: list[Any]


class _Reading(NamedTuple):
    mods: list[Any]
    sizes: list[int]
    dicts: list[dict[str, Any]]
    tables: list[list[dict[Any, Any]]]


class ForestWatch:
    """The last reading of one forest of plain module trees (see the module docstring)."""

    def __init__(self) -> None:
        self.seen: _Seen | None = None

    def forget(self) -> None:
        self.seen = None

    def same(self, ctx: Ctx, named: list[tuple[str, Any]]) -> bool | dict[int, int]:
        """Whether ``named`` (module names and their modules) reads exactly as remembered; or,
        where it does but for grads replaced by equal ones, which (old id -> new id): the
        watch then remembers the new ones (see :class:`._tensor_list.Regrad`)."""
        seen = self.seen
        if seen is None or list(map(_FIRST, named)) != seen.names:
            return False
        roots = list(map(_SECOND, named))
        stamp = _stamp(seen, roots)  # NB: first: it vouches only for what is read after it
        if stamp is not None and stamp.versions == seen.versions:
            if pre_hooks_token(stamp.dicts, []) != seen.hooks:
                return False
            return self._content(ctx, seen, stamp.dicts, stamp.tables, True)
        r = _read(roots, seen)
        if r is None or r.sizes != seen.sizes:
            return False
        dicts = r.dicts
        if list(map(len, dicts)) != seen.dict_lens or _joined(dicts) != seen.dict_keys:
            return False
        extras = list(map(dict.__getitem__, chain.from_iterable(
            map(repeat, dicts, seen.extra_counts)), seen.extra_keys))
        if list(map(is_, map(type, extras), seen.extra_types)).count(False):
            return False
        mods = r.tables[2]
        if list(map(len, mods)) != seen.modules_lens or _joined(mods) != seen.modules_keys:
            return False
        if pre_hooks_token(dicts, []) != seen.hooks:
            return False
        verdict = self._content(ctx, seen, dicts, r.tables, False)
        if verdict is not False and stamp is not None and self.seen is not None:
            # NB: read before this proof: the next push may trust it
            self.seen = self.seen._replace(versions=stamp.versions)
        return verdict

    def _content(self, ctx: Ctx, seen: _Seen, dicts: list[dict[str, Any]],
                 tables: list[list[dict[Any, Any]]], known: bool) -> bool | dict[int, int]:
        """What no dict version proves: the attributes a walk looks into, and the tables'
        tensors (``known``: their dicts are proven unchanged)."""
        if seen.odd:
            odd = list(map(dict.__getitem__, map(dicts.__getitem__, seen.odd_dicts),
                           seen.odd_names))
            if list(map(id, odd)) != seen.odd_ids:
                return False
            t = Tokenizer(ctx)
            if not known or not ctx.guarded:  # NB: a running cell could rebind one meanwhile
                t._attrs(seen.odd_names, odd)
                if t.tok != seen.odd_tok:
                    return False
            elif seen.odd_live:  # NB: kernel sizes, shapes...: most of a real model's extras
                t._attrs(list(map(seen.odd_names.__getitem__, seen.odd_live)),
                         list(map(odd.__getitem__, seen.odd_live)))
                if t.tok != seen.odd_live_tok:
                    return False
        verdicts = [_same_table(ctx, tables[k], seen.tables[k], known) for k in (0, 1)]
        if any(v is False for v in verdicts):
            return False
        moved: dict[int, int] = {}
        now = list(seen.tables)
        for k, v in enumerate(verdicts):
            if isinstance(v, Regrad):
                moved.update(v.moved)
                now[k] = now[k]._replace(tensors=v.seen)
        if not moved:
            return True
        self.seen = seen._replace(tables=(now[0], now[1]))
        return moved

    def remember(self, ctx: Ctx, named: list[tuple[str, Any]]) -> None:
        """Read ``named`` in full and keep what :meth:`same` compares; nothing where it cannot
        prove sameness for these trees."""
        self.seen = None
        roots = [m for _name, m in named]
        r = _read(roots, None)
        if r is None or any(_types.info(type(m)).name in _WRAPPERS for m in roots):
            return
        dict_get = _one_getter(r.mods)
        versions = _versions(r.dicts, r.tables) if dict_get is not None else None
        dicts = r.dicts
        dict_keys = _joined_plain(dicts)
        modules_keys = _joined_plain(r.tables[2])
        if dict_keys is None or modules_keys is None:
            return
        if any("hf_device_map" in d for d in dicts[:len(roots)]):
            return  # NB: looked up only now that every key is known to be an exact str
        extra_counts = [len(d) - len(STD_KEYS.intersection(d)) for d in dicts]
        extra_keys = [k for d in dicts for k in d if k not in STD_KEYS]
        holder = list(chain.from_iterable(map(repeat, range(len(dicts)), extra_counts)))
        extras = list(map(dict.__getitem__, map(dicts.__getitem__, holder), extra_keys))
        extra_types = list(map(type, extras))
        odd = [i for i, tp in enumerate(extra_types) if id(tp) not in _INERT_IDS]
        odd_names = [extra_keys[i] for i in odd]
        odd_values = list(map(extras.__getitem__, odd))
        t = Tokenizer(ctx)
        t._attrs(odd_names, odd_values)
        live = [i for i, v in enumerate(odd_values) if not _frozen(v)]
        t_live = Tokenizer(ctx)
        t_live._attrs([odd_names[i] for i in live], [odd_values[i] for i in live])
        tables = tuple(_remember_table(ctx, r.tables[k]) for k in (0, 1))
        if tables[0] is None or tables[1] is None:
            return
        hooks_pins: list[Any] = []
        if versions is not None and not _same_objects(r, _read(roots, None)):
            versions = None  # NB: the trees changed while read: their versions vouch for nothing
        self.seen = _Seen(
            list(map(_FIRST, named)), r.sizes, list(map(_ref, r.mods)),
            list(map(type, r.mods)), list(map(len, dicts)), dict_keys, extra_counts,
            extra_keys, extra_types, odd, [holder[i] for i in odd], odd_names,
            list(map(id, odd_values)), t.tok, t.pins, live, t_live.tok,
            list(map(len, r.tables[2])), modules_keys, (tables[0], tables[1]), dict_get, versions,
            pre_hooks_token(dicts, hooks_pins), hooks_pins)


_SCALARS = frozenset(map(id, (int, float, str, bool, type(None))))


def _frozen(v: Any) -> bool:
    """Whether ``v`` is a tuple of plain scalars: immutable all the way down, so the very same
    object always tokens the same (``kernel_size``, ``normalized_shape``)."""
    return type(v) is tuple and _SCALARS.issuperset(map(id, map(type, v)))


class _Stamp(NamedTuple):
    versions: list[int]
    dicts: list[dict[str, Any]]
    tables: list[list[dict[Any, Any]]]


def _stamp(seen: _Seen, roots: list[Any]) -> _Stamp | None:
    """The versions of the remembered modules' dicts and tables now (the modules found through
    their weak references, the roots where they were), or None where they cannot be read.
    NB: equal to the remembered versions, no dict changed since: every module keeps its
    children, keys and values, so the trees are as remembered without walking them."""
    if seen.versions is None:
        return None
    mods = list(map(call, seen.refs))
    if (list(map(is_, map(type, mods), seen.types)).count(False)  # NB: a dead one reads None
            or list(map(is_, roots, mods)).count(False)):
        return None
    dicts = list(map(seen.dict_get, mods))
    if not _types.all_exact(dicts, dict):
        return None
    tables: list[list[Any]] = [list(map(dict.get, dicts, repeat(k))) for k in _TABLE_KEYS]
    if not all(map(_plain_tables, tables)):  # NB: an absent table reads as empty
        return None
    return _Stamp(_versions(dicts, tables) or [], dicts, tables)


def _versions(dicts: list[dict[str, Any]], tables: list[list[dict[Any, Any]]]
              ) -> list[int] | None:
    version = reader()
    if version is None:
        return None
    return list(chain(map(version, dicts), *(map(version, t) for t in tables)))


def _one_getter(mods: list[Any]) -> Any:
    """The ``__dict__`` getter every module's type shares, or None."""
    types = list(map(type, mods))  # NB: distinct by id: hashing a type runs its metaclass's
    distinct = dict(zip(map(id, types), types, strict=True)).values()
    gets = {_types.info(tp).dict_get for tp in distinct}
    return gets.pop() if len(gets) == 1 else None


def _same_objects(a: _Reading, b: _Reading | None) -> bool:
    """Whether two readings found the very same modules, dicts and tables."""
    return b is not None and a.sizes == b.sizes and not any(
        list(map(is_, x, y)).count(False)
        for x, y in zip((a.mods, a.dicts, *a.tables), (b.mods, b.dicts, *b.tables), strict=True))


def _read(roots: list[Any], seen: _Seen | None) -> _Reading | None:
    """Every module of the trees, level by level, with their ``__dict__``s and tables (the
    token's own reading, :func:`._token_tree._levels`); with ``seen``, None unless every module
    is still the very one remembered at its place, of the same type."""
    mods: list[Any] = []
    dicts: list[dict[str, Any]] = []
    tables: list[list[dict[Any, Any]]] = [[], [], []]
    sizes = _levels(roots, dicts, tables, mods)
    if not sizes:
        return None  # NB: not plain (a module reached twice, a table that is no dict...)
    if seen is not None and (
            len(mods) != len(seen.refs)
            or list(map(is_, mods, map(call, seen.refs))).count(False)
            or list(map(is_, map(type, mods), seen.types)).count(False)):
        return None
    return _Reading(mods, sizes, dicts, tables)


def _joined(dicts: list[dict[Any, Any]]) -> str | None:
    """Every key of every dict as one string; None where a key is not a ``str``.
    NB: ``str.join`` reads text only (no user ``__eq__``/``__hash__``), and with a NUL in no
    remembered key, an equal string with equal lengths means equal keys."""
    try:
        text = _SEP.join(chain.from_iterable(dicts))
    except TypeError:
        return None
    return text


def _joined_plain(dicts: list[dict[Any, Any]]) -> str | None:
    """:func:`_joined` of keys that are all exact ``str`` (else None), and None too where a key
    holds a NUL (then equal text would not prove equal keys)."""
    keys = list(chain.from_iterable(dicts))
    if not _types.all_exact(keys, str):
        return None  # NB: exact strings only: a str subclass could hash or compare in Python
    text = _SEP.join(keys)
    if text.count(_SEP) != max(len(keys) - 1, 0):
        return None
    return text


def _remember_table(ctx: Ctx, table: list[dict[Any, Any]]) -> _Table | None:
    keys = _joined_plain(table)
    if keys is None:
        return None
    values = list(chain.from_iterable(map(dict.values, table)))
    nones = list(map(is_, values, repeat(None)))
    if nones.count(True):  # NB: a walk skips a None entry; the token pins it by id
        values = list(compress(values, map(not_, nones)))
    else:
        nones = []
    tensors = _tensor_list.remember(ctx, values)
    return None if tensors is None else _Table(list(map(len, table)), keys, tensors, nones)


def _same_table(ctx: Ctx, table: list[dict[Any, Any]], seen: _Table, known: bool
                ) -> bool | Regrad:
    """Whether one kind of table holds the remembered tensors with the remembered headers and
    grads. ``known``: its dicts are unchanged (:mod:`._versions`), so the same keys and values.
    NB: with no None remembered, an entry set to None since fails the tensors' type check."""
    if not known and (list(map(len, table)) != seen.lens or _joined(table) != seen.keys):
        return False
    if known and not seen.tensors.ids:  # NB: the same entries, and none was a tensor then
        return True
    values = list(chain.from_iterable(map(dict.values, table)))
    if seen.nones:
        if not known and list(map(is_, values, repeat(None))) != seen.nones:
            return False
        values = list(compress(values, map(not_, seen.nones)))
    return _tensor_list.check(ctx, values, seen.tensors, known)
