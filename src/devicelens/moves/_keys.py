"""What a move may touch without running user code: dict keys it can hash, fake tensors."""

from __future__ import annotations

from types import FunctionType
from typing import Any

from ..inspect._trust import type_name


def is_fake(obj: Any) -> bool:
    return type_name(type(obj)) == "FakeTensor"


# NB: the ids of live builtin types: a set of the types would hash them (a metaclass's code)
_PLAIN_KEYS = frozenset(map(id, (str, int, float, bool, complex, bytes, type(None))))


def plain_key(key: Any, depth: int = 0) -> bool:
    """Whether hashing and comparing ``key`` (to rebind a value under it) runs no user code:
    builtin scalars, tuples of them, identity-hashed objects, C types, torch's own classes."""
    tp = type(key)
    if id(tp) in _PLAIN_KEYS:
        return True
    if tp is tuple or tp is frozenset:
        return depth < 8 and all(plain_key(k, depth + 1) for k in tp.__iter__(key))
    for name in ("__hash__", "__eq__"):
        fn = _type_lookup(tp, name)
        if fn is None:
            return False
        module = getattr(fn, "__module__", None) if type(fn) is FunctionType else "C"
        if not (type(module) is str and (module in ("C", "enum") or module == "torch"
                                         or module.startswith("torch."))):
            return False
    return True


def _type_lookup(tp: type, name: str) -> Any:
    for klass in type.__getattribute__(tp, "__mro__"):
        d = type.__getattribute__(klass, "__dict__")
        if name in d:
            return d[name]
    return None
