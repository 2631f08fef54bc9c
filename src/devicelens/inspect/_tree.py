"""The one place that walks user objects: containers, module parameters/buffers, optimizer state.

NB: nothing here may run user code. Containers are read through the *base* type's C methods
(``dict.items(d)``, ``list.__iter__(l)``), attributes through the instance ``__dict__`` and
slot descriptors, and types through ``type(obj)``: never ``isinstance`` on a proxy, never a
property, never ``str``/``repr`` of a user object. The same ``Ref`` steps let :mod:`moves` find an
object again and :func:`code_for` write the fix against the user's own names.
NB: a dict, set or deque is copied (one C call, :func:`_first`) before its children are looked
at: a cell running on another thread may add to it meanwhile.
"""

from __future__ import annotations

import collections
import itertools
import keyword
import re
import unicodedata
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

from . import _types
from ._types import _dataclass_fields as _dataclass_fields  # moves and guard read through these
from ._types import _read_field as _read_field
from ._types import _type_dict_lookup as _type_dict_lookup
from ._types import container_kind as container_kind
from ._types import instance_dict as instance_dict
from ._types import is_frozen_dataclass as is_frozen_dataclass

StepKind = Literal["name", "attr", "item", "pos", "state", "group_param"]


class Step(NamedTuple):
    """One hop from an object to a child. ``hint`` says how a module child is indexed in code."""

    kind: StepKind
    key: str | int | tuple[int, int]
    # "seq" (ModuleList/Sequential), "dict" (ModuleDict), "field", "grad", "key" (a plain
    # dict's key that is no string), ""
    hint: str = ""


Ref = tuple[Step, ...]

_new = tuple.__new__  # NB: several times cheaper than a NamedTuple's generated __new__
_ATTR_STEPS: dict[str, dict[str, Step]] = {}


def step(kind: StepKind, key: Any, hint: str = "") -> Step:
    return _new(Step, (kind, key, hint))


def attr_step(name: str, hint: str = "") -> Step:
    """``Step("attr", name, hint)``, shared: the same few names recur in every model."""
    steps = _ATTR_STEPS.get(hint)
    if steps is None:
        steps = _ATTR_STEPS[hint] = {}
    s = steps.get(name)
    if s is None:
        if len(steps) > 100_000:  # NB: cleared in place: the walker holds the "" table
            steps.clear()
        s = steps[name] = _new(Step, ("attr", name, hint))
    return s

#: key types whose value a path may show and code may index with
_SCALAR_KEYS = (str, int, bool, type(None))


def scalar_key(k: Any) -> bool:
    """Whether a dict key can appear in a path and in code. NB: identity on the type: ``in`` on
    a tuple of types would call a metaclass ``__eq__``."""
    tp = type(k)
    return tp is str or tp is int or tp is bool or k is None


def iter_children(obj: Any, kind: str, width: int) -> Iterator[tuple[Step, Any]]:
    """Children of a container, at most ``width`` of them, with the step that reaches each."""
    if kind in ("dict", "userdict"):
        d = obj if kind == "dict" else (instance_dict(obj) or {}).get("data")
        if d is None or not issubclass(type(d), dict):
            return
        for i, (k, v) in enumerate(_first(iter(dict.items(d)), width)):
            # NB: a dict's int key says so (``"key"``): ``[1]`` reads the same for a list
            yield (step("item", k, "" if type(k) is str else "key") if scalar_key(k)
                   else step("pos", i)), v
    elif kind in ("namedtuple", "dataclass", "namespace", "chainmap"):
        yield from _fields(obj, kind, width)
    else:
        seq = _sequence(obj, kind)
        if seq is None:
            return
        step_kind: StepKind = "pos" if kind == "set" else "item"
        for i, v in enumerate(_first(seq, width)):
            yield step(step_kind, i), v


def _first(it: Iterator[Any], n: int) -> list[Any]:
    """The first ``n`` items of a C iterator, read in one C call (no bytecode runs, so no other
    thread can change the container before the copy is complete)."""
    return list(itertools.islice(it, n))


def _sequence(obj: Any, kind: str) -> Iterator[Any] | None:
    """The elements of a list-like container, read through its base type's C iterator."""
    if kind == "list":
        return list.__iter__(obj)
    if kind == "tuple":
        return tuple.__iter__(obj)
    if kind == "set":
        return (frozenset.__iter__ if issubclass(type(obj), frozenset) else set.__iter__)(obj)
    if kind == "deque":
        return collections.deque.__iter__(obj)
    if kind == "userlist":
        data = (instance_dict(obj) or {}).get("data")
        return list.__iter__(data) if data is not None and issubclass(type(data), list) else None
    return None


def _fields(obj: Any, kind: str, width: int) -> Iterator[tuple[Step, Any]]:
    if kind == "namedtuple":
        fields = _types.info(type(obj)).fields
        for i, v in enumerate(tuple.__iter__(obj)):
            if i >= width:
                return
            yield (attr_step(fields[i], "field") if i < len(fields) else step("item", i)), v
    elif kind == "dataclass":
        for i, name in enumerate(_types.info(type(obj)).fields):
            if i >= width:
                return
            try:
                yield attr_step(name, "field"), _read_field(obj, name)
            except LookupError:
                continue
    elif kind == "namespace":
        for k, v in _first(iter(dict.items(instance_dict(obj) or {})), width):
            if type(k) is str:
                yield attr_step(k, "field"), v
    else:  # chainmap: ``cm[key]`` as the map reads it: the first map holding a key wins
        yield from itertools.islice(_chainmap_items(obj), width)


def _chainmap_items(obj: Any) -> Iterator[tuple[Step, Any]]:
    maps = (instance_dict(obj) or {}).get("maps")
    seen: set[Any] = set()
    for m in list.__iter__(maps) if type(maps) is list else ():
        if not issubclass(type(m), dict):
            continue
        for k, v in list(dict.items(m)):
            if scalar_key(k) and k not in seen:
                seen.add(k)
                yield step("item", k), v


def container_len(obj: Any, kind: str) -> int:
    """How many children a container has (0 where the walk does not bound its width)."""
    if kind == "dict":
        return dict.__len__(obj)
    if kind in ("tuple", "namedtuple"):
        return tuple.__len__(obj)
    if kind == "list":
        return list.__len__(obj)
    if kind == "set":
        return frozenset.__len__(obj) if issubclass(type(obj), frozenset) else set.__len__(obj)
    if kind == "deque":
        return collections.deque.__len__(obj)
    if kind in ("userdict", "userlist"):
        data = (instance_dict(obj) or {}).get("data")
        base = dict if kind == "userdict" else list
        return base.__len__(data) if data is not None and issubclass(type(data), base) else 0
    if kind == "namespace":
        return dict.__len__(instance_dict(obj) or {})
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
    """What ``module`` directly holds. NB: a table or attribute under a non-``str`` key is
    skipped, never the whole module (its name could not be written in a path anyway)."""
    if tensor_type is None:
        import torch

        tensor_type = torch.Tensor
    d = instance_dict(module) or {}
    script = _script_parts(d)
    if script is not None:
        return ModuleParts(*script, [], _types.info(type(module)).hint)
    params = _table(d.get("_parameters"))
    buffers = _table(d.get("_buffers"))
    children = _table(d.get("_modules"))
    attrs = [(k, v) for k, v in list(dict.items(d))
             if type(k) is str and (not k.startswith("_") or issubclass(type(v), tensor_type))]
    return ModuleParts(params, buffers, children, attrs, _types.info(type(module)).hint)


Parts = list[tuple[str, Any]]


def _script_parts(d: dict[str, Any]) -> tuple[Parts, Parts, Parts] | None:
    """(params, buffers, children) of a TorchScript module (``torch.jit.script`` or ``trace``),
    read from its C++ module, or None for any other module. NB: its tables are views of the C++
    module (no ``dict``), a traced module keeps them on the script module it wraps; read through
    torch's own C++ bindings, so no user code runs."""
    inner = d.get("_actual_script_module")
    if inner is not None:
        d = instance_dict(inner) or {}
    c = d.get("_c")
    if c is None or "_c" not in d:
        return None
    import torch

    if type(c) is not torch._C.ScriptModule:
        return None
    tables: Any = (torch._C.ParameterDict(c), torch._C.BufferDict(c))  # NB: typed without items
    params = [(k, v) for k, v in tables[0].items() if v is not None]
    buffers = [(k, v) for k, v in tables[1].items() if v is not None]
    mods = d.get("_modules")
    python = (instance_dict(mods) or {}).get("_python_modules") if mods is not None else None
    return params, buffers, _table(python)


def is_script(module: Any) -> bool:
    """Whether ``module`` is a TorchScript module (its state lives in a C++ module)."""
    return _script_parts(instance_dict(module) or {}) is not None


def script_view(d: dict[str, Any]) -> dict[str, Any]:
    """A module's instance dict ``d`` as the walkers read it: for a TorchScript module, plain
    ``_parameters``/``_buffers``/``_modules`` tables read from its C++ module (and nothing
    else); any other module's ``d`` itself. NB: two dict lookups for an ordinary module."""
    if "_c" not in d and "_actual_script_module" not in d:
        return d
    parts = _script_parts(d)
    if parts is None:
        return d
    return {"_parameters": dict(parts[0]), "_buffers": dict(parts[1]),
            "_modules": dict(parts[2]), SCRIPT: True}


#: the key :func:`script_view` marks its tables with
SCRIPT = "_devicelens_script"


def _table(d: Any) -> list[tuple[str, Any]]:
    """The ``str``-keyed, non-None entries of a module's parameter/buffer/submodule table."""
    if d is None or not issubclass(type(d), dict):
        return []
    return [(k, v) for k, v in list(dict.items(d)) if v is not None and type(k) is str]


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

_GETATTR = re.compile(r"^getattr\((.+), ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\)$", re.S)


def str_literal(s: str) -> str:
    """``s`` as a Python string literal, double-quoted where it can be. NB: escaped, so a name
    with a quote in it (set through ``setattr``) stays a string in a fix, never code."""
    r = repr(s)
    if r.startswith("'") and '"' not in s:
        return '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def assign_code(code: str, value: str) -> str:
    """The statement that binds ``code`` (an expression from :func:`code_for`) to ``value``:
    ``setattr(m, 'pos-emb', v)`` where the attribute's name is no identifier."""
    m = _GETATTR.match(code)
    return f"setattr({m.group(1)}, {m.group(2)}, {value})" if m else f"{code} = {value}"


def del_code(code: str) -> str:
    """The statement that deletes ``code``: ``delattr(m, 'pos-emb')`` where needed."""
    m = _GETATTR.match(code)
    return f"delattr({m.group(1)}, {m.group(2)})" if m else f"del {code}"


def code_for(ref: Ref) -> str:
    """A Python expression that evaluates to the object ``ref`` points at, in user names."""
    out = ""
    for step in ref:
        out = _apply_step_code(out, step)
    return out


def plain_name(key: str) -> bool:
    """``key`` can be written as a bare name in code and reads back as itself. NB: Python
    NFKC-normalises identifiers, so ``m.豈`` looks up another attribute than ``'豈'``."""
    return (key.isidentifier() and not keyword.iskeyword(key)
            and unicodedata.normalize("NFKC", key) == key)


def _apply_step_code(prefix: str, step: Step) -> str:
    kind, key, hint = step
    if kind == "name":
        key = str(key)
        # NB: a name set through globals()[...] may be any string: never code of its own
        return key if plain_name(key) else f"globals()[{key!r}]"
    if kind == "attr":
        key = str(key)
        if plain_name(key):
            return f"{prefix}.{key}"
        if hint == "seq" and key.isascii() and key.isdecimal():
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
        key = str(key)
        # NB: a name set through globals()[...] may be any string: never code of its own
        return key if plain_name(key) else f"globals()[{key!r}]"
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
_INDEXABLE: dict[str, Any] = {"list": list, "tuple": tuple, "namedtuple": tuple,
                              "deque": collections.deque}


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


_NOT_A_CONTAINER = object()
#: torch's module containers, by class name: the table their own ``__getitem__`` reads, and
#: whether it takes a position (``layers[0]``) or a key (``layers["I"]``)
_MODULE_TABLES = {"ModuleDict": ("_modules", False), "ParameterDict": ("_parameters", False),
                  "ModuleList": ("_modules", True), "Sequential": ("_modules", True),
                  "ParameterList": ("_parameters", True)}


def _module_item(obj: Any, key: Any) -> Any:
    """``obj[key]`` of one of torch's module containers, read from its table as its own
    ``__getitem__`` does (a user's code reads ``self.layers[l]``); ``_NOT_A_CONTAINER`` for
    anything else, a subclass with its own ``__getitem__`` included (never run)."""
    for cls in _types._MRO(type(obj)):
        d = _types._TDICT(cls)
        name = _types._NAME(cls)
        if d.get("__module__") == "torch.nn.modules.container" and name in _MODULE_TABLES:
            if _type_dict_lookup(type(obj), "__getitem__") is not d.get("__getitem__"):
                return _NOT_A_CONTAINER
            table_name, positional = _MODULE_TABLES[name]
            table: Any = dict.get(instance_dict(obj) or {}, table_name)
            if not issubclass(type(table), dict):
                return _MISSING
            if not positional:
                return dict.get(table, key, _MISSING) if type(key) is str else _MISSING
            values = list(dict.values(table))
            if type(key) is not int or not -len(values) <= key < len(values):
                return _MISSING
            return values[key]
    return _NOT_A_CONTAINER


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
            held = _module_item(obj, key)
            if held is not _NOT_A_CONTAINER:
                return held
            ck = container_kind(obj)
            if ck in ("dict", "userdict"):
                d2 = obj if ck == "dict" else (instance_dict(obj) or {}).get("data", {})
                return dict.get(d2, key, _MISSING)
            if ck == "chainmap":
                return next((v for st, v in _chainmap_items(obj) if st.key == key), _MISSING)
            if type(key) is not int:
                return _MISSING
            if ck == "userlist":
                obj, ck = (instance_dict(obj) or {}).get("data"), "list"
                if not issubclass(type(obj), list):
                    return _MISSING
            base = _INDEXABLE.get(ck or "")
            return base.__getitem__(obj, key) if base is not None else _MISSING
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
