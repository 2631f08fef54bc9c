"""What a user object is, judged without running any of its code: type facts, cached per type.

NB: nothing here touches an attribute through the object or its class. Classes are read through
``type``'s own descriptors (a metaclass ``__getattribute__`` or ``__name__`` property never runs),
instances through the ``__dict__`` getset found in their MRO (never a ``__dict__`` property,
``__getattribute__`` or ``__class__`` property), and classes are compared by identity only
(``==``/``hash`` on a class can run its metaclass). Facts are cached by ``id(type)`` with the type
kept alive beside them, so an id is never reused while its entry lives.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
import types
from itertools import repeat
from operator import is_
from typing import Any, NamedTuple

_MRO = type.__dict__["__mro__"].__get__
_NAME = type.__dict__["__name__"].__get__
_TDICT = type.__dict__["__dict__"].__get__
_GETSET = types.GetSetDescriptorType
_MEMBER = types.MemberDescriptorType


def type_mro(tp: type) -> tuple[type, ...]:
    return _MRO(tp)  # type: ignore[no-any-return]


def type_name(tp: type) -> str:
    return _NAME(tp)  # type: ignore[no-any-return]


def _type_dict_lookup(tp: type, name: str) -> Any:
    """Class attribute lookup through the MRO's ``__dict__``s: no descriptors, no metaclass code."""
    for klass in _MRO(tp):
        d = _TDICT(klass)
        if name in d:
            return d[name]
    return None


class TypeInfo(NamedTuple):
    tp: type  # NB: kept alive, so the id keying the cache stays this type's
    name: str
    what: str  # tensor | module | optimizer | <container kind> | ""
    hint: str  # how a module's children are indexed in code: seq | dict | ""
    dict_get: Any  # the ``__dict__`` getset's __get__, or None: never read through a property
    fields: tuple[str, ...]  # namedtuple or dataclass fields
    frozen: bool  # immutable container


_CACHE: dict[int, TypeInfo] = {}
_CACHE_MAX = 20_000


def info(tp: type) -> TypeInfo:
    entry = _CACHE.get(id(tp))
    if entry is None or entry.tp is not tp:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        entry = _CACHE[id(tp)] = _compute(tp)
    return entry


def _torch_types() -> tuple[Any, Any, Any]:
    torch = sys.modules.get("torch")
    if torch is None:
        return (), (), ()
    return torch.Tensor, torch.nn.Module, torch.optim.Optimizer


def _compute(tp: type) -> TypeInfo:
    mro = _MRO(tp)
    tensor, module, optimizer = _torch_types()
    names = {_NAME(k) for k in mro}
    fields: tuple[str, ...] = ()
    frozen = False
    hint = "dict" if "ModuleDict" in names else "seq" if names & {"ModuleList",
                                                                  "Sequential"} else ""
    if any(k is tensor for k in mro):
        what = "tensor"
    elif any(k is module for k in mro):
        what = "module"
    elif any(k is optimizer for k in mro):
        what = "optimizer"
    else:
        what, fields, frozen = _container(tp, mro)
    return TypeInfo(tp, _NAME(tp), what, hint, _dict_getter(mro), fields, frozen)


def _container(tp: type, mro: tuple[type, ...]) -> tuple[str, tuple[str, ...], bool]:
    def has(base: type) -> bool:
        return any(k is base for k in mro)

    if has(dict):
        return "dict", (), False
    if has(tuple):
        names = _type_dict_lookup(tp, "_fields")
        if type(names) is tuple and all(type(n) is str for n in names):
            return "namedtuple", names, True
        return "tuple", (), True
    for base, kind in ((list, "list"), (set, "set"), (frozenset, "set"),
                       (collections.deque, "deque"), (collections.UserDict, "userdict"),
                       (collections.UserList, "userlist"), (collections.ChainMap, "chainmap"),
                       (types.SimpleNamespace, "namespace")):
        if has(base):
            return kind, (), base is frozenset
    dc = _dataclass_fields(tp)
    if dc is not None and not has(type):
        return "dataclass", dc, is_frozen_dataclass(tp)
    return "", (), False


def _dict_getter(mro: tuple[type, ...]) -> Any:
    for klass in mro:
        descr = _TDICT(klass).get("__dict__")
        if descr is not None:  # NB: C's own accessors only (a getset, or a slot for C types)
            return descr.__get__ if type(descr) is _GETSET or type(descr) is _MEMBER else None
    return None


def _dataclass_fields(tp: type) -> tuple[str, ...] | None:
    fields = _type_dict_lookup(tp, "__dataclass_fields__")
    if type(fields) is not dict:
        return None
    return tuple(
        name for name, f in dict.items(fields)
        if type(name) is str and type(f) is dataclasses.Field
        and f._field_type is dataclasses._FIELD  # type: ignore[attr-defined]
    )


def is_frozen_dataclass(tp: type) -> bool:
    params = _type_dict_lookup(tp, "__dataclass_params__")
    if type(params) is not dataclasses._DataclassParams:  # type: ignore[attr-defined]
        return False
    return params.frozen is True


def instance_dict(obj: Any) -> dict[str, Any] | None:
    """``obj.__dict__`` without going through a user ``__getattribute__``/``__getattr__`` or a
    ``__dict__`` property."""
    return read_dict(info(type(obj)), obj)


def read_dict(tinfo: TypeInfo, obj: Any) -> dict[str, Any] | None:
    """:func:`instance_dict` of ``obj``, whose type's info a caller has already looked up."""
    get = tinfo.dict_get
    if get is None:
        return None
    try:
        d = get(obj)
    except Exception:
        return None
    return d if type(d) is dict else None


def _read_field(obj: Any, name: str) -> Any:
    """A dataclass field's value from the instance dict or its slot, never via a property."""
    d = instance_dict(obj)
    if d is not None and name in d:
        return d[name]
    slot = _type_dict_lookup(type(obj), name)
    if type(slot) is _MEMBER or type(slot) is _TUPLEGETTER:  # slots, namedtuple fields
        return slot.__get__(obj, type(obj))
    raise LookupError(name)


_TUPLEGETTER = type(vars(collections.namedtuple("_P", "a"))["a"])


def container_kind(obj: Any) -> str | None:
    """What kind of walkable container ``obj`` is, judged from ``type(obj)`` only."""
    what = info(type(obj)).what
    return what if what and what not in ("tensor", "module", "optimizer") else None


def count_exact(types_: list[Any], *classes: type) -> int:
    """How many of ``types_`` are one of ``classes`` itself. NB: by identity: ``list.count``
    would compare with ``==``, and a class's ``==`` runs its metaclass's ``__eq__``."""
    return sum(list(map(is_, types_, repeat(c))).count(True) for c in classes)


def all_exact(values: list[Any], cls: type) -> bool:
    """Whether every value is exactly a ``cls`` (by identity, as :func:`count_exact`)."""
    return list(map(is_, map(type, values), repeat(cls))).count(True) == len(values)


def one_of(tp: type, classes: tuple[type, ...]) -> bool:
    """Whether ``tp`` is one of ``classes`` itself. NB: never ``tp in classes`` (``==``, a
    metaclass's ``__eq__``) nor a set of classes (``hash``, its ``__hash__``)."""
    return True in map(is_, repeat(tp), classes)
