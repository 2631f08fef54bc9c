"""Shared material of the fuzz suite: namespace *recipes* (plain data hypothesis can shrink and
print), the builder that turns a recipe into fresh torch objects, hostile objects that record
every call into user code, an independent fingerprint of everything a namespace reaches, the
plain-JSON check, and the figures ``make fuzz`` prints.

NB: recipes, never objects, go through hypothesis: describing a hostile object would run it.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import json
import math
import os
import time
import types
import weakref
from collections.abc import Callable
from typing import Any

import torch
from hypothesis import strategies as st
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

#: every call into user code lands here ("torch_function:…" from the benign subclass)
CALLS: list[str] = []
#: examples per test = base x this (``make fuzz`` raises it)
SCALE = int(os.environ.get("DEVICELENS_FUZZ_SCALE", "1"))


class Boom(Exception):
    pass


# --- hostile objects ------------------------------------------------------------------------

class RaisingProps:
    """Looks like a model: properties and dunders that record, then raise."""

    @property
    def weight(self) -> Any:
        CALLS.append("property")
        raise Boom

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"getattr:{name}")
        raise Boom

    def __eq__(self, other: object) -> bool:
        CALLS.append("eq")
        raise Boom

    def __hash__(self) -> int:
        CALLS.append("hash")
        raise Boom

    def __repr__(self) -> str:
        CALLS.append("repr")
        raise Boom


class AnswersAnything:
    """A ``__getattr__`` proxy that claims to be a tensor through ``__class__``."""

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"getattr:{name}")
        return self

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        CALLS.append("__class__")
        return torch.Tensor


class HostileDict(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        CALLS.append("dict.items")
        raise Boom

    def __iter__(self) -> Any:
        CALLS.append("dict.iter")
        raise Boom

    def __getitem__(self, k: Any) -> Any:
        CALLS.append("dict.getitem")
        raise Boom

    def __setitem__(self, k: Any, v: Any) -> None:
        CALLS.append("dict.setitem")
        raise Boom

    def __len__(self) -> int:
        CALLS.append("dict.len")
        raise Boom


class HostileList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        CALLS.append("list.iter")
        raise Boom

    def __getitem__(self, i: Any) -> Any:
        CALLS.append("list.getitem")
        raise Boom

    def __setitem__(self, i: Any, v: Any) -> None:
        CALLS.append("list.setitem")
        raise Boom

    def __len__(self) -> int:
        CALLS.append("list.len")
        raise Boom


class HostileModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.cache = torch.ones(3)

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"module getattr:{name}")
        raise Boom

    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" in self.__dict__ and name not in ("fc", "cache"):
            CALLS.append(f"module setattr:{name}")
        super().__setattr__(name, value)


@dataclasses.dataclass
class ClassProp:
    """A dataclass whose ``__class__`` is a property (issue 12 D)."""

    t: Any

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        CALLS.append("dataclass __class__")
        raise Boom


@dataclasses.dataclass
class GetAttribute:
    """A dataclass with its own ``__getattribute__`` (issue 12 D)."""

    t: Any

    def __getattribute__(self, name: str) -> Any:
        if name != "__dict__":
            CALLS.append(f"dataclass getattribute:{name}")
        return object.__getattribute__(self, name)


class LoudMeta(type):
    def __getattribute__(cls, name: str) -> Any:
        if name not in ("__dict__", "__mro__"):
            CALLS.append(f"metaclass getattribute:{name}")
        return type.__getattribute__(cls, name)


class MetaHeld(metaclass=LoudMeta):
    """An object whose class's metaclass runs code on every class attribute read."""

    def __init__(self, t: Any) -> None:
        self.t = t


class LoudKey:
    def __hash__(self) -> int:
        CALLS.append("key hash")
        return 7

    def __eq__(self, other: object) -> bool:
        CALLS.append("key eq")
        return self is other


class HostileTensor(torch.Tensor):
    """A tensor subclass whose metadata is user code that raises."""

    @property
    def device(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor device")
        raise Boom

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor dtype")
        raise Boom

    @property
    def shape(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor shape")
        raise Boom

    @property
    def grad(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor grad")
        raise Boom

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        CALLS.append(f"tensor torch_function:{getattr(func, '__name__', '?')}")
        raise Boom


class BenignTensor(torch.Tensor):
    """A well-behaved subclass (like torchvision's tv_tensors): its ``__torch_function__`` is
    the one user code a real move of it may run."""

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        CALLS.append(f"torch_function:{getattr(func, '__name__', '?')}")
        return super().__torch_function__(func, types, args, kwargs or {})


class Split(enum.Enum):
    TRAIN = 1
    VAL = 2


Pair = collections.namedtuple("Pair", "a b")


@dataclasses.dataclass
class Box:
    a: Any
    b: Any = None


@dataclasses.dataclass(frozen=True)
class FrozenBox:
    a: Any
    b: Any = None


class Holder(nn.Module):
    """A module holding arbitrary children as plain attributes (traps)."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)
        for i, v in enumerate(items):  # NB: by type only: isinstance would ask __class__
            if issubclass(type(v), (nn.Module, torch.Tensor)):
                setattr(self, f"a{i}", v)
            else:
                object.__setattr__(self, f"a{i}", v)


# --- leaves -------------------------------------------------------------------------------

def _fake(device: str = "cuda:0") -> torch.Tensor:
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    with mode:
        return torch.empty(3, device=device)


def _with_grad(t: torch.Tensor) -> torch.Tensor:
    t.requires_grad_(True)
    (t * 2).sum().backward()
    return t


def _base_view() -> torch.Tensor:
    base = torch.arange(12.0).reshape(3, 4)
    return base[1:]


def _trained(opt_cls: Callable[..., torch.optim.Optimizer], **kw: Any) -> dict[str, Any]:
    m = nn.Linear(3, 2)
    opt = opt_cls(m.parameters(), lr=0.1, **kw)
    m(torch.ones(1, 3)).sum().backward()
    opt.step()
    return {"model": m, "opt": opt}


def _split() -> nn.Module:
    m = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 2))
    old = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        m[1].to("meta")
    finally:
        torch.__future__.set_swap_module_params_on_conversion(old)
    return m


def _hooked() -> nn.Module:
    m = nn.Linear(2, 2)
    m.weight.register_hook(lambda g: g)
    m.weight.register_post_accumulate_grad_hook(lambda p: None)
    return m


def _trap() -> nn.Module:
    m = nn.Linear(2, 2)
    m.mask = torch.ones(2)  # a plain tensor attribute: Module.to() misses it
    m.heads = [nn.Linear(2, 2)]
    return m


def _frozen_in_graph() -> dict[str, Any]:
    base, lora = nn.Linear(3, 3), nn.Linear(3, 3)
    base.requires_grad_(False)
    return {"base": base, "lora": lora, "out": base(lora(torch.ones(2, 3))).sum()}


def _loud_key() -> dict[Any, Any]:
    d: dict[Any, Any] = {}
    dict.__setitem__(d, LoudKey(), torch.ones(2))
    return d


LEAVES: dict[str, Callable[[], Any]] = {
    # tensors of every kind
    "f32": lambda: torch.randn(2, 3), "f64": lambda: torch.randn(3, dtype=torch.float64),
    "f16": lambda: torch.ones(2, dtype=torch.float16),
    "bf16": lambda: torch.ones(2, dtype=torch.bfloat16),
    "i64": lambda: torch.arange(4), "bool": lambda: torch.tensor([True, False]),
    "complex": lambda: torch.ones(2, dtype=torch.complex64),
    "scalar": lambda: torch.tensor(3.0), "int_scalar": lambda: torch.tensor(2),
    "empty": lambda: torch.empty(0, 3),
    "grad_leaf": lambda: _with_grad(torch.ones(3)),
    "nonleaf": lambda: torch.ones(2, requires_grad=True) * 2,
    "view": _base_view, "transposed": lambda: torch.randn(3, 2).t(),
    "expanded": lambda: torch.ones(1, 3).expand(4, 3),
    "sparse_coo": lambda: torch.eye(3).to_sparse(),
    "sparse_csr": lambda: torch.eye(3).to_sparse_csr(),
    "quantized": lambda: torch.quantize_per_tensor(torch.ones(4), 0.1, 0, torch.qint8),
    "nested": lambda: torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
    "jagged": lambda: torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(4, 3)],
                                                 layout=torch.jagged),
    "huge_meta": lambda: torch.empty(1 << 40, device="meta"),
    "meta": lambda: torch.ones(2, 2, device="meta"),
    "param": lambda: nn.Parameter(torch.ones(2)),
    "fake_cuda": _fake,
    "benign_subclass": lambda: torch.ones(2).as_subclass(BenignTensor),
    "hostile_subclass": lambda: torch.ones(2).as_subclass(HostileTensor),
    # modules and optimizers
    "linear": lambda: nn.Linear(3, 2), "seq_bn": lambda: nn.Sequential(
        nn.Linear(2, 3), nn.BatchNorm1d(3)),
    "lstm": lambda: nn.LSTM(2, 3), "gru": lambda: nn.GRU(2, 2, num_layers=2),
    "rnn": lambda: nn.RNN(2, 2), "embedding": lambda: nn.Embedding(5, 2),
    "frozen": lambda: nn.Linear(2, 2).requires_grad_(False),
    "meta_linear": lambda: nn.Linear(2, 2, device="meta"), "split": _split,
    "hooked": _hooked, "trap": _trap, "hostile_module": HostileModule,
    "sgd": lambda: _trained(torch.optim.SGD, momentum=0.9),
    "adam": lambda: _trained(torch.optim.Adam), "lora": _frozen_in_graph,
    # hostile objects
    "props": RaisingProps, "proxy": AnswersAnything,
    "hdict": lambda: HostileDict(k=torch.ones(1)), "hlist": lambda: HostileList([torch.ones(1)]),
    "class_prop": lambda: ClassProp(torch.ones(2)),
    "getattribute": lambda: GetAttribute(torch.ones(2)),
    "meta_getattribute": lambda: MetaHeld(torch.ones(2)), "loud_key": _loud_key,
    # scalars
    "int": lambda: 3, "str": lambda: "s", "none": lambda: None, "float": lambda: 2.5,
    "ints": lambda: list(range(10_000)), "enum_key": lambda: {Split.TRAIN: torch.ones(1)},
}

_HASHABLE_LEAVES = frozenset(k for k, f in LEAVES.items() if k in (
    "f32", "f64", "i64", "bool", "scalar", "meta", "param", "int", "str", "none", "float",
    "linear", "frozen"))


def _ns_module(items: list[Any]) -> Holder:
    return Holder(items)


def _self_ref(items: list[Any]) -> list[Any]:
    out = list(items)
    out.append(out)
    return out


CONTAINERS: dict[str, Callable[[list[Any]], Any]] = {
    "list": list, "tuple": tuple, "dict": lambda xs: {f"k{i}": x for i, x in enumerate(xs)},
    "int_keys": lambda xs: dict(enumerate(xs)),
    "namedtuple": lambda xs: Pair(xs[0] if xs else None, xs[1:] or None),
    "dataclass": lambda xs: Box(xs[0] if xs else None, list(xs[1:])),
    "frozen_dataclass": lambda xs: FrozenBox(xs[0] if xs else None, tuple(xs[1:])),
    "deque": collections.deque, "userlist": collections.UserList,
    "userdict": lambda xs: collections.UserDict({f"u{i}": x for i, x in enumerate(xs)}),
    "chainmap": lambda xs: collections.ChainMap({f"c{i}": x for i, x in enumerate(xs)}, {}),
    "simplenamespace": lambda xs: types.SimpleNamespace(**{f"n{i}": x for i, x in
                                                           enumerate(xs)}),
    "ordereddict": lambda xs: collections.OrderedDict((f"o{i}", x) for i, x in enumerate(xs)),
    "defaultdict": lambda xs: collections.defaultdict(list, {f"d{i}": x for i, x in
                                                             enumerate(xs)}),
    "hostile_dict": lambda xs: _hostile_dict(xs),
    "module": _ns_module, "self_ref": _self_ref,
    "frozenset": lambda xs: frozenset(_hashable(xs)), "set": lambda xs: set(_hashable(xs)),
}


def _hostile_dict(xs: list[Any]) -> HostileDict:
    d = HostileDict()
    for i, x in enumerate(xs):
        dict.__setitem__(d, f"h{i}", x)
    return d


def _hashable(xs: list[Any]) -> list[Any]:
    """Items a set can hold, chosen by type only (hashing a hostile object would run it)."""
    ok = (torch.Tensor, nn.Module, int, str, float, type(None))
    return [x for x in xs if issubclass(type(x), ok) and type(x) not in (HostileTensor,
                                                                          HostileModule)]


# --- recipes ------------------------------------------------------------------------------

leaf = st.one_of(st.sampled_from(sorted(LEAVES)),
                 st.tuples(st.just("alias"), st.integers(0, 40)))
tree = st.recursive(
    leaf, lambda kids: st.tuples(st.sampled_from(sorted(CONTAINERS)), st.lists(kids,
                                                                                max_size=4)),
    max_leaves=10)
namespaces = st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True), tree,
                             min_size=1, max_size=6)


def build(recipe: dict[str, Any]) -> dict[str, Any]:
    """Fresh objects for ``recipe``; ``("alias", k)`` reuses the k-th tensor built so far."""
    torch.manual_seed(0)
    made: list[Any] = []
    return {name: _build(r, made) for name, r in recipe.items()}


def _build(r: Any, made: list[Any]) -> Any:
    if isinstance(r, str):
        obj = LEAVES[r]()
        if issubclass(type(obj), torch.Tensor):
            made.append(obj)
        return obj
    if r[0] == "alias":
        return made[r[1] % len(made)] if made else None
    kind, kids = r
    return CONTAINERS[kind]([_build(k, made) for k in kids])


# --- fingerprints -------------------------------------------------------------------------

def fingerprint(ns: dict[str, Any]) -> list[Any]:
    """What a namespace reaches: identity of every object and, per tensor, id, type, device,
    dtype, shape, version, grad and data. NB: read through base types, C-level getters and
    instance ``__dict__``s, with ``__torch_function__`` off: it runs no user code itself."""
    out: list[Any] = []
    with torch._C.DisableTorchFunctionSubclass():
        seen: set[int] = set()
        for name in sorted(dict.keys(ns)):
            _walk(dict.__getitem__(ns, name), name, 0, seen, out)
    return out


def _walk(obj: Any, path: str, depth: int, seen: set[int], out: list[Any]) -> None:
    tp = type(obj)
    if tp is weakref.ref:  # NB: a weak reference is what it points to (a swap makes new ones)
        out.append((path, "weakref", id(obj())))
        return
    out.append((path, id(obj), tp))
    if id(obj) in seen or depth > 12 or tp in (int, str, float, bool, type(None)):
        return
    seen.add(id(obj))
    if issubclass(tp, torch.Tensor):
        out.append(_tensor(obj))
        return
    for key, child in _children(obj, tp):
        _walk(child, f"{path}/{key}", depth + 1, seen, out)


def _children(obj: Any, tp: type) -> list[tuple[Any, Any]]:
    if issubclass(tp, dict):
        return [(i, v) for i, v in enumerate(dict.values(obj))]
    if issubclass(tp, (list, tuple)):
        return list(enumerate((list if issubclass(tp, list) else tuple).__iter__(obj)))
    if issubclass(tp, collections.deque):
        return list(enumerate(collections.deque.__iter__(obj)))
    if issubclass(tp, (set, frozenset)):
        items = (frozenset if issubclass(tp, frozenset) else set).__iter__(obj)
        return [(i, v) for i, v in enumerate(sorted(items, key=id))]
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        return []
    return [(k, v) for k, v in dict.items(d) if type(k) is str] if type(d) is dict else []


def _tensor(t: Any) -> tuple[Any, ...]:
    base = torch._C.TensorBase
    dev, dt = base.device.__get__(t), base.dtype.__get__(t)
    try:
        shape = tuple(str(s) for s in base.shape.__get__(t))
    except RuntimeError:  # NB: strided nested tensors have no sizes
        shape = ("nested",)
    grad = base.grad.__get__(t) if base.is_leaf.__get__(t) else None
    return (id(t), type(t), str(dev), dt, shape, base._version.__get__(t),
            base.requires_grad.__get__(t), None if grad is None else id(grad), _data(t, dev))


def _data(t: Any, dev: Any) -> Any:
    """The values, where a tensor has them; ``None`` for meta, fake and exotic tensors."""
    tp = type(t)
    if dev.type != "cpu" or tp not in (torch.Tensor, nn.Parameter):
        return None
    layout = torch._C.TensorBase.layout.__get__(t)
    if t.is_quantized:
        return t.int_repr().tolist()
    if t.is_nested:
        return [u.tolist() for u in t.unbind()]
    if layout is not torch.strided:
        return t.to_dense().tolist()
    return t.detach().tolist()


# --- plain JSON -----------------------------------------------------------------------------

def assert_plain_json(value: Any, where: str = "wire") -> None:
    """Only dicts with str keys, lists, strings, ints, finite floats, bools and None at any
    depth (subclasses that JSON writes as their base, like ``torch.__version__``, count)."""
    tp = type(value)
    if issubclass(tp, dict):
        for k, v in value.items():
            assert issubclass(type(k), str), f"{where}: key {k!r} is a {type(k).__name__}"
            assert_plain_json(v, f"{where}.{k}")
    elif issubclass(tp, (list, tuple)):
        for i, v in enumerate(value):
            assert_plain_json(v, f"{where}[{i}]")
    elif issubclass(tp, float):
        assert math.isfinite(value), f"{where}: {value!r}"
    else:
        assert value is None or issubclass(tp, (str, int)), f"{where}: a {tp.__name__}"
    if where == "wire":
        json.dumps(value, allow_nan=False)


# --- figures --------------------------------------------------------------------------------

@dataclasses.dataclass
class Figures:
    """What ``make fuzz`` prints: kept by every example, summed over the run."""

    namespaces: int = 0
    moves: int = 0
    injected: int = 0
    crashes: int = 0
    state_changes: int = 0
    user_code_calls: int = 0
    slowest: float = 0.0
    slowest_case: str = ""
    tensors: int = 0

    def timed(self, started: float, recipe: Any) -> None:
        took = time.perf_counter() - started
        if took > self.slowest:
            self.slowest, self.slowest_case = took, repr(recipe)[:300]


FIGURES = Figures()
