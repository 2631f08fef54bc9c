"""Namespace *recipes* (plain data hypothesis can shrink and print) and the builder that turns a
recipe into fresh torch objects: tensors of every kind, modules, optimizers with state, hostile
objects (:mod:`.hostile`), in any of 18 kinds of containers, with aliases.

NB: recipes, never objects, go through hypothesis: describing a hostile object would run it.
"""

from __future__ import annotations

import collections
import types
from collections.abc import Callable
from typing import Any

import torch
from hypothesis import strategies as st
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

from .hostile import (
    AnswersAnything,
    BenignTensor,
    Box,
    ClassProp,
    EqHeld,
    FrozenBox,
    GetAttribute,
    Holder,
    HostileDict,
    HostileList,
    HostileModule,
    HostileTensor,
    LoudFrozenBox,
    LoudFrozenSet,
    LoudKey,
    MetaHashTensor,
    MetaHeld,
    OwnHashTensor,
    Pair,
    RaisingProps,
    Split,
    view_of_loud_eq,
)

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
    "own_hash_subclass": lambda: torch.ones(2).as_subclass(OwnHashTensor),
    "meta_hash_subclass": lambda: torch.ones(2).as_subclass(MetaHashTensor),
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
    "meta_eq": lambda: EqHeld(torch.ones(2)), "eq_base_view": view_of_loud_eq,
    # scalars
    "int": lambda: 3, "str": lambda: "s", "none": lambda: None, "float": lambda: 2.5,
    "ints": lambda: list(range(10_000)), "enum_key": lambda: {Split.TRAIN: torch.ones(1)},
}

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
    "loud_frozenset": lambda xs: LoudFrozenSet(_hashable(xs)),
    "loud_frozen_dataclass": lambda xs: LoudFrozenBox(xs[0] if xs else None, tuple(xs[1:])),
}


def _hostile_dict(xs: list[Any]) -> HostileDict:
    d = HostileDict()
    for i, x in enumerate(xs):
        dict.__setitem__(d, f"h{i}", x)
    return d


def _hashable(xs: list[Any]) -> list[Any]:
    """Items a set can hold, chosen by type only (hashing a hostile object would run it)."""
    ok = (torch.Tensor, nn.Module, int, str, float, type(None))
    return [x for x in xs if issubclass(type(x), ok) and type(x) is not HostileTensor
            and type(x) is not HostileModule]


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
