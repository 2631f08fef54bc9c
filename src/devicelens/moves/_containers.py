"""The containers a move opens, and the references it can rebind in each: dict-likes, lists,
tuples and namedtuples, sets, dataclasses, deques, UserLists, ChainMaps, SimpleNamespaces.

NB: read through the base types' C methods and instance ``__dict__``s only, like
:mod:`devicelens.inspect._tree`; scalars are skipped before anything is built for them.
"""

from __future__ import annotations

import collections
import types
from typing import Any, NamedTuple

from ..inspect import _tree
from ..inspect._tree import Step
from ..inspect._types import one_of

# NB: matched by identity (:func:`one_of`): ``in`` on classes runs a metaclass's ``__eq__``
_SCALAR_KEYS = (str, int, bool, type(None))
_SCALARS = (str, int, bool, float, complex, type(None), bytes)
_SCALAR_IDS = frozenset(map(id, _SCALARS))  # NB: ids of live types: a set of the types hashes


class Slot(NamedTuple):
    """One reference to rebind. ``kind``: map (a dict-like), list, deque, set, member (a
    ``__slots__`` field), grad (``holder.grad``) or node (a field of an immutable container,
    rebuilt)."""

    kind: str
    holder: Any
    key: Any


class Node:
    """An immutable container (tuple, namedtuple, frozen dataclass, frozenset) above a tensor."""

    __slots__ = ("dirty", "kind", "obj", "parents", "replace")

    def __init__(self, obj: Any, kind: str) -> None:
        self.obj = obj
        self.kind = kind
        self.parents: list[Slot] = []
        self.replace: dict[Any, Any] = {}  # key -> Entry | Node
        self.dirty = False


def _children(obj: Any, kind: str, node: Node | None) -> list[tuple[Slot, Step, Any]]:
    """(slot, step, child) for every child; the slot says how to put a new child back."""
    out: list[tuple[Slot, Step, Any]] = []
    if kind in ("dict", "userdict"):
        d = obj if kind == "dict" else (_tree.instance_dict(obj) or {}).get("data")
        if d is None or not issubclass(type(d), dict):
            return out
        for i, (k, v) in enumerate(list(dict.items(d))):
            if one_of(type(v), _SCALARS):
                continue
            step = Step("item", k) if one_of(type(k), _SCALAR_KEYS) else Step("pos", i)
            out.append((Slot("map", d, k), step, v))
    elif kind == "list":
        out = [(Slot("list", obj, i), Step("item", i), v)
               for i, v in enumerate(list(list.__iter__(obj))) if not one_of(type(v), _SCALARS)]
    elif kind in ("tuple", "namedtuple"):
        fields = _tree._type_dict_lookup(type(obj), "_fields") if kind == "namedtuple" else ()
        for i, v in enumerate(tuple.__iter__(obj)):
            if one_of(type(v), _SCALARS):
                continue
            name = fields[i] if i < len(fields) else None
            step = Step("attr", name, "field") if type(name) is str else Step("item", i)
            out.append((Slot("node", node, i), step, v))
    elif kind == "set":
        frozen = issubclass(type(obj), frozenset)
        items = list(frozenset.__iter__(obj) if frozen else set.__iter__(obj))
        out = [(Slot("node", node, i) if node is not None else Slot("set", obj, None),
                Step("pos", i), v) for i, v in enumerate(items) if not one_of(type(v), _SCALARS)]
    elif kind in _MORE:
        out = _MORE[kind](obj)
    elif kind == "dataclass":
        idict = _tree.instance_dict(obj)
        for name in _tree._dataclass_fields(type(obj)) or ():
            try:
                v = _tree._read_field(obj, name)
            except LookupError:
                continue
            if node is not None:
                slot = Slot("node", node, name)
            elif idict is not None and name in idict:
                slot = Slot("map", idict, name)
            else:
                slot = Slot("member", obj, name)
            out.append((slot, Step("attr", name, "field"), v))
    return out


def move_kind(obj: Any) -> str | None:
    """:func:`devicelens.inspect._tree.container_kind`, plus the containers only a move opens:
    deque, UserList, ChainMap and SimpleNamespace. NB: judged from the MRO read past any
    metaclass (``issubclass`` on an ABC would run ``__subclasshook__``s)."""
    mro = type.__getattribute__(type(obj), "__mro__")
    for base, kind in _MORE_KINDS:
        if one_of(base, mro):  # NB: ``in`` would compare with ``==``: a metaclass's code
            return kind
    return _tree.container_kind(obj)


_MORE_KINDS = ((collections.deque, "deque"), (types.SimpleNamespace, "namespace"),
               (collections.UserList, "userlist"), (collections.ChainMap, "chainmap"))


def _only_scalars(obj: Any, kind: str) -> bool:
    """True when ``obj`` holds nothing but scalars, judged at C speed (``set(map(type, ...))``):
    a list of a million ints costs milliseconds, not seconds. NB: base-type iterators only."""
    if kind == "list":
        items: Any = list.__iter__(obj)
    elif kind in ("tuple", "namedtuple"):
        items = tuple.__iter__(obj)
    elif kind == "set":
        items = (frozenset if issubclass(type(obj), frozenset) else set).__iter__(obj)
    elif kind == "dict":
        items = dict.values(obj)
    elif kind == "deque":
        items = collections.deque.__iter__(obj)
    else:
        return False
    return set(map(id, map(type, items))) <= _SCALAR_IDS


def _deque_children(obj: Any) -> list[tuple[Slot, Step, Any]]:
    return [(Slot("deque", obj, i), Step("item", i), v)
            for i, v in enumerate(list(collections.deque.__iter__(obj)))
            if not one_of(type(v), _SCALARS)]


def _userlist_children(obj: Any) -> list[tuple[Slot, Step, Any]]:
    data = (_tree.instance_dict(obj) or {}).get("data")
    if data is None or not issubclass(type(data), list):
        return []
    return [(Slot("list", data, i), Step("item", i), v)
            for i, v in enumerate(list(list.__iter__(data))) if not one_of(type(v), _SCALARS)]


def _chainmap_children(obj: Any) -> list[tuple[Slot, Step, Any]]:
    maps = (_tree.instance_dict(obj) or {}).get("maps")
    out: list[tuple[Slot, Step, Any]] = []
    for j, m in enumerate(maps if type(maps) is list else ()):
        if issubclass(type(m), dict):
            out += [(Slot("map", m, k), _chain_step(j, k), v) for k, v in list(dict.items(m))
                    if not one_of(type(v), _SCALARS)]
    return out


def _chain_step(j: int, key: Any) -> Step:
    """``cm[key]`` for the first map; deeper maps may be shadowed, so only their position."""
    return Step("item", key) if j == 0 and one_of(type(key), _SCALAR_KEYS) else Step("pos", j)


def _namespace_children(obj: Any) -> list[tuple[Slot, Step, Any]]:
    d = _tree.instance_dict(obj) or {}
    return [(Slot("map", d, k), Step("attr", k), v) for k, v in list(dict.items(d))
            if type(k) is str and not one_of(type(v), _SCALARS)]


_MORE = {"deque": _deque_children, "userlist": _userlist_children,
         "chainmap": _chainmap_children, "namespace": _namespace_children}


def _holds_module(v: Any, kind: str, module_type: type) -> bool:
    return any(issubclass(type(c), module_type) for _s, _st, c in _children(v, kind, None)
               if kind != "dataclass")
