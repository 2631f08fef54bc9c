"""The one place that walks user objects: containers, module parameters/buffers, optimizer state.

NB: nothing here may run user code. Containers are read through the *base* type's C methods
(``dict.items(d)``, ``list.__iter__(l)``), attributes through the instance ``__dict__`` and
slot descriptors, and types through ``type(obj)``: never ``isinstance`` on a proxy, never a
property, never ``str``/``repr`` of a user object. The same ``Ref`` steps let :mod:`moves` find an
object again and :func:`code_for` write the fix against the user's own names.
NB: a dict or set is copied (one C call, :func:`_first`) before its children are looked at: a
cell running on another thread may add to it meanwhile.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import keyword
import types
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

StepKind = Literal["name", "attr", "item", "pos", "state", "group_param"]


class Step(NamedTuple):
    """One hop from an object to a child. ``hint`` says how a module child is indexed in code."""

    kind: StepKind
    key: str | int | tuple[int, int]
    hint: str = ""  # "seq" (ModuleList/Sequential), "dict" (ModuleDict), "field", "grad", ""


Ref = tuple[Step, ...]

_SCALAR_KEYS = (str, int, bool, type(None))


def _type_dict_lookup(tp: type, name: str) -> Any:
    """Class attribute lookup through the MRO's ``__dict__``s: no descriptors, no metaclass code."""
    for klass in type.__getattribute__(tp, "__mro__"):
        d = type.__getattribute__(klass, "__dict__")
        if name in d:
            return d[name]
    return None


def instance_dict(obj: Any) -> dict[str, Any] | None:
    """``obj.__dict__`` without going through a user ``__getattribute__``/``__getattr__``."""
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    return d if type(d) is dict else None


def _is_namedtuple(tp: type) -> bool:
    return issubclass(tp, tuple) and isinstance(_type_dict_lookup(tp, "_fields"), tuple)


def _dataclass_fields(tp: type) -> tuple[str, ...] | None:
    fields = _type_dict_lookup(tp, "__dataclass_fields__")
    if type(fields) is not dict:
        return None
    return tuple(
        name for name, f in fields.items()
        if type(f) is dataclasses.Field and f._field_type is dataclasses._FIELD  # type: ignore[attr-defined]
    )


def is_frozen_dataclass(tp: type) -> bool:
    params = _type_dict_lookup(tp, "__dataclass_params__")
    return bool(getattr(params, "frozen", False)) if params is not None else False


def _read_field(obj: Any, name: str) -> Any:
    """A dataclass field's value from the instance dict or its slot, never via a property."""
    d = instance_dict(obj)
    if d is not None and name in d:
        return d[name]
    slot = _type_dict_lookup(type(obj), name)
    if type(slot).__name__ in ("member_descriptor", "_tuplegetter"):  # slots, namedtuple fields
        return slot.__get__(obj, type(obj))
    raise LookupError(name)


#: containers read through their C methods or their instance dict (no user code): a deque, a
#: UserList's ``data``, a ChainMap's ``maps``, a SimpleNamespace's ``__dict__``
_MORE_KINDS = ((collections.deque, "deque"), (collections.UserList, "userlist"),
               (collections.ChainMap, "chainmap"), (types.SimpleNamespace, "namespace"))


def container_kind(obj: Any) -> str | None:
    """What kind of walkable container ``obj`` is, judged from ``type(obj)`` only."""
    tp = type(obj)
    if issubclass(tp, dict):
        return "dict"
    if issubclass(tp, tuple):
        return "namedtuple" if _is_namedtuple(tp) else "tuple"
    if issubclass(tp, list):
        return "list"
    if issubclass(tp, (set, frozenset)):
        return "set"
    # NB: names and the MRO read past a metaclass; issubclass, not isinstance (a __class__ property)
    mro = type.__getattribute__(tp, "__mro__")
    if any(type.__getattribute__(k, "__name__") == "UserDict" for k in mro):
        return "userdict"
    for base, kind in _MORE_KINDS:
        if base in mro:
            return kind
    if _dataclass_fields(tp) is not None and not issubclass(tp, type):
        return "dataclass"
    return None


def _first(it: Iterator[Any], n: int) -> list[Any]:
    """The first ``n`` items of a C iterator, read in one C call (no bytecode runs, so no other
    thread can change the container before the copy is complete)."""
    return list(itertools.islice(it, n))


def iter_children(obj: Any, kind: str, width: int) -> Iterator[tuple[Step, Any]]:
    """Children of a container, at most ``width`` of them, with the step that reaches each."""
    if kind == "dict" or kind == "userdict":
        d = obj if kind == "dict" else (instance_dict(obj) or {}).get("data", {})
        if type(d) is not dict and not issubclass(type(d), dict):
            return
        for i, (k, v) in enumerate(_first(iter(dict.items(d)), width)):
            yield (Step("item", k) if type(k) in _SCALAR_KEYS else Step("pos", i)), v
    elif kind == "namedtuple":
        fields = _type_dict_lookup(type(obj), "_fields")
        for i, v in enumerate(tuple.__iter__(obj)):
            if i >= width:
                return
            name = fields[i] if i < len(fields) else None
            yield (Step("attr", name, "field") if type(name) is str else Step("item", i)), v
    elif kind in ("tuple", "list"):
        base = tuple if kind == "tuple" else list
        for i, v in enumerate(base.__iter__(obj)):
            if i >= width:
                return
            yield Step("item", i), v
    elif kind == "set":
        sbase: Any = frozenset if issubclass(type(obj), frozenset) else set
        for i, v in enumerate(_first(sbase.__iter__(obj), width)):
            yield Step("pos", i), v
    elif kind in _MORE_CHILDREN:
        yield from itertools.islice(_MORE_CHILDREN[kind](obj), width)
    elif kind == "dataclass":
        for i, name in enumerate(_dataclass_fields(type(obj)) or ()):
            if i >= width:
                return
            try:
                yield Step("attr", name, "field"), _read_field(obj, name)
            except LookupError:
                continue


def _deque_children(obj: Any) -> Iterator[tuple[Step, Any]]:
    for i, v in enumerate(list(collections.deque.__iter__(obj))):
        yield Step("item", i), v


def _userlist_children(obj: Any) -> Iterator[tuple[Step, Any]]:
    data = (instance_dict(obj) or {}).get("data")
    if data is not None and issubclass(type(data), list):
        for i, v in enumerate(list(list.__iter__(data))):
            yield Step("item", i), v


def _chainmap_children(obj: Any) -> Iterator[tuple[Step, Any]]:
    """``cm[key]`` as the ChainMap reads it: the first map holding a key wins."""
    maps = (instance_dict(obj) or {}).get("maps")
    seen: set[Any] = set()
    for m in maps if type(maps) is list else ():
        if not issubclass(type(m), dict):
            continue
        for k, v in list(dict.items(m)):
            if type(k) in _SCALAR_KEYS and k not in seen:
                seen.add(k)
                yield Step("item", k), v


def _namespace_children(obj: Any) -> Iterator[tuple[Step, Any]]:
    for k, v in list(dict.items(instance_dict(obj) or {})):
        if type(k) is str:
            yield Step("attr", k), v


_MORE_CHILDREN = {"deque": _deque_children, "userlist": _userlist_children,
                  "chainmap": _chainmap_children, "namespace": _namespace_children}


def container_len(obj: Any, kind: str) -> int:
    if kind == "dict":
        return dict.__len__(obj)
    if kind in ("tuple", "namedtuple"):
        return tuple.__len__(obj)
    if kind == "list":
        return list.__len__(obj)
    if kind == "set":
        return frozenset.__len__(obj) if issubclass(type(obj), frozenset) else set.__len__(obj)
    return 0


# --- modules -------------------------------------------------------------------------------

class ModuleParts(NamedTuple):
    """What one module directly holds, read from its ``__dict__``."""

    params: list[tuple[str, Any]]
    buffers: list[tuple[str, Any]]
    children: list[tuple[str, Any]]
    attrs: list[tuple[str, Any]]  # plain attributes that may hold tensors or modules (traps)
    hint: str  # how children are indexed in code


def module_parts(module: Any, tensor_type: type | None = None) -> ModuleParts:
    if tensor_type is None:
        import torch

        tensor_type = torch.Tensor
    d = instance_dict(module) or {}
    params = [(k, v) for k, v in list(dict.items(d.get("_parameters") or {})) if v is not None]
    buffers = [(k, v) for k, v in list(dict.items(d.get("_buffers") or {})) if v is not None]
    children = [(k, v) for k, v in list(dict.items(d.get("_modules") or {})) if v is not None]
    attrs = [(k, v) for k, v in list(dict.items(d))
             if type(k) is str and (not k.startswith("_") or issubclass(type(v), tensor_type))]
    names = {c.__name__ for c in type(module).__mro__}
    hint = "seq" if names & {"ModuleList", "Sequential"} else ""
    hint = "dict" if "ModuleDict" in names else hint
    return ModuleParts(params, buffers, children, attrs, hint)


def submodules(root: Any, limit: int = 10_000) -> Iterator[Any]:
    """``root`` and every registered submodule below it, each once, at most ``limit`` of them."""
    todo = [root]
    seen: set[int] = set()
    while todo and len(seen) < limit:
        m = todo.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        yield m
        todo.extend(c for _n, c in module_parts(m).children)


# --- code generation ------------------------------------------------------------------------

def code_for(ref: Ref) -> str:
    """A Python expression that evaluates to the object ``ref`` points at, in user names."""
    out = ""
    for step in ref:
        out = _apply_step_code(out, step)
    return out


def _apply_step_code(prefix: str, step: Step) -> str:
    kind, key, hint = step
    if kind == "name":
        return str(key)
    if kind == "attr":
        key = str(key)
        if key.isidentifier() and not keyword.iskeyword(key):
            return f"{prefix}.{key}"
        if hint == "seq" and key.isdigit():
            return f"{prefix}[{key}]"
        if hint == "dict":
            return f"{prefix}[{key!r}]"
        return f"getattr({prefix}, {key!r})"
    if kind == "item":
        return f"{prefix}[{key!r}]"
    if kind == "state":
        g, i = key if isinstance(key, tuple) else (0, 0)
        return f'{prefix}.state[{prefix}.param_groups[{g}]["params"][{i}]]'
    if kind == "group_param":
        g, i = key if isinstance(key, tuple) else (0, 0)
        return f'{prefix}.param_groups[{g}]["params"][{i}]'
    return f"{prefix}[...]"  # "pos": an unordered or unprintable key: no code form


def display_for(ref: Ref) -> str:
    """The path users read: torch-dotted inside modules, Python-like inside containers."""
    out = ""
    for step in ref:
        out = display_step(out, step)
    return out


def display_step(prefix: str, step: Step) -> str:
    kind, key, _hint = step
    if kind == "name":
        return str(key)
    if kind == "attr":
        return f"{prefix}.{key}"
    if kind == "item":
        return f"{prefix}[{key!r}]"
    if kind == "pos":
        return f"{prefix}[#{key}]"
    if kind == "group_param":
        g, i = key if isinstance(key, tuple) else (0, 0)
        return f"{prefix}.param_groups[{g}].params[{i}]"
    return f"{prefix}.state"


def has_code(ref: Ref) -> bool:
    return all(s.kind != "pos" for s in ref)


_MISSING = object()


def resolve(namespace: dict[str, Any], ref: Ref) -> Any:
    """The object at ``ref`` now, or raise ``LookupError`` saying which step no longer exists.

    Used by the move engine between planning and applying: objects may have vanished meanwhile.
    """
    obj: Any = _MISSING
    for step in ref:
        obj = _resolve_step(namespace, obj, step)
        if obj is _MISSING:
            raise LookupError(f"{display_for(ref)} no longer exists")
    return obj


def _resolve_step(namespace: dict[str, Any], obj: Any, step: Step) -> Any:
    kind, key, hint = step
    try:
        if kind == "name":
            return namespace.get(str(key), _MISSING)
        if kind == "attr":
            if hint == "grad":
                return obj.grad
            d = instance_dict(obj) or {}
            for table in ("_parameters", "_buffers", "_modules"):
                inner = d.get(table)
                if type(inner) is dict and key in inner:
                    return inner[key]
            if key in d:
                return d[key]
            return _read_field(obj, str(key))
        if kind == "item":
            ck = container_kind(obj)
            if ck in ("dict", "userdict"):
                d2 = obj if ck == "dict" else (instance_dict(obj) or {}).get("data", {})
                return dict.get(d2, key, _MISSING)
            if ck in ("list", "tuple", "namedtuple") and isinstance(key, int):
                return (list if ck == "list" else tuple).__getitem__(obj, key)
            if ck in _MORE_CHILDREN:
                return next((v for st, v in _MORE_CHILDREN[ck](obj) if st.key == key), _MISSING)
            return _MISSING
        if kind == "pos":
            for i, (_s, child) in enumerate(iter_children(obj, container_kind(obj) or "", 1 << 30)):
                if i == key:
                    return child
            return _MISSING
        if kind == "group_param" and isinstance(key, tuple):
            g, i = key
            return obj.param_groups[g]["params"][i]
        if kind == "state" and isinstance(key, tuple):
            g, i = key
            return obj.state.get(obj.param_groups[g]["params"][i], _MISSING)
    except (LookupError, AttributeError, TypeError):
        return _MISSING
    return _MISSING
