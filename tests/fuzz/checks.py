"""What the fuzz suite checks and counts: an independent fingerprint of everything a namespace
reaches, the plain-JSON test for wire values, and the figures ``make fuzz`` prints."""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import os
import time
import weakref
from typing import Any

import torch
from torch import nn

#: examples per test = base x this (``make fuzz`` raises it)
SCALE = int(os.environ.get("DEVICELENS_FUZZ_SCALE", "1"))


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
    out.append((path, id(obj), id(tp)))  # NB: types by id: ``==`` may run a metaclass
    if id(obj) in seen or depth > 12 or any(tp is s for s in (int, str, float, bool, type(None))):
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
