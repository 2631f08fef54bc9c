"""Walks one namespace name into records: tensors, modules (params, buffers, traps), optimizers.

The hot path of every snapshot: string caches and a node budget are shared across names, and
records are built with ``tuple.__new__``. Reading user objects goes through :mod:`._tree` only.
"""

from __future__ import annotations

import types
from typing import Any

from . import _tree
from ._tree import Ref, Step
from ._trust import Trust, type_name
from .records import ModuleRecord, ObjectRecord, TensorRecord, device_key

MAX_DEPTH = 6
MAX_WIDTH = 1000

_new_record = tuple.__new__  # NB: 4x cheaper than TensorRecord(...), which goes through Python


class _Ctx:
    """What every walk of one snapshot shares: torch types, string caches and the node budget."""

    def __init__(self, torch: Any, max_nodes: int) -> None:
        self.torch = torch
        self.Tensor = torch.Tensor
        self.Module = torch.nn.Module
        self.Optimizer = torch.optim.Optimizer
        self.dense = (torch.Tensor, torch.nn.Parameter)
        self.strided = torch.strided
        self.budget = max_nodes
        self.dev: dict[Any, str] = {}
        self.dt: dict[Any, tuple[str, int, bool]] = {}
        self.param_paths: dict[int, str] = {}
        self.trust = Trust(torch)

    def dtype(self, dtype: Any) -> tuple[str, int, bool]:
        name = str(dtype).removeprefix("torch.")
        entry = (name, int(dtype.itemsize), name.startswith(("qint", "quint")))
        self.dt[dtype] = entry
        return entry


class _Walker:
    """Collects records for one namespace name. NB: bounded by depth, width and a node budget."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.tensors: list[TensorRecord] = []
        self.modules: list[ModuleRecord] = []
        self.truncated = False

    def spend(self) -> bool:
        self.ctx.budget -= 1
        if self.ctx.budget < 0:
            self.truncated = True
            return False
        return True

    def tensor(self, t: Any, path: str, ref: Ref, role: str, owner: str) -> None:
        if not self.spend():
            return
        rec = self.record(t, path, ref, role, owner)
        self.tensors.append(rec)
        grad = leaf_grad(t) if rec.requires_grad and role != "state" else None
        if grad is not None:
            gref = (*ref, Step("attr", "grad", "grad"))
            self.tensors.append(self.record(grad, f"{path}.grad", gref, "grad", path))

    def record(self, t: Any, path: str, ref: Ref, role: str, owner: str) -> TensorRecord:
        ctx = self.ctx
        tp = type(t)
        flavor = "dense" if tp in ctx.dense else _FLAVORS.get(type_name(tp), "subclass")
        if flavor == "subclass" and ctx.trust(tp):  # NB: its metadata is user code: never read
            return TensorRecord(path, ref, role, owner, _opaque_device(t, ctx), "?", (), 0, 0,
                                False, True, "?", "opaque", id(t))
        try:
            dev = t.device
            device = ctx.dev.get(dev) or ctx.dev.setdefault(dev, str(dev))
            dt = t.dtype
            dtname, itemsize, quantized = ctx.dt.get(dt) or ctx.dtype(dt)
            layout = t.layout
            if t.is_nested:  # NB: before the layout: a jagged one's shape holds a SymInt
                flavor, shape, numel = "nested", (), t.numel()
            elif layout is not ctx.strided:
                flavor, shape, numel = "sparse", tuple(t.shape), t.numel()
            else:
                shape = tuple(t.shape)
                numel = t.numel()
                if quantized:
                    flavor = "quantized"
            base = t._base
            return _new_record(TensorRecord, (
                path, ref, role, owner, device, dtname, shape, numel, numel * itemsize,
                t.requires_grad, t.is_leaf, _LAYOUTS.get(layout) or _layout(layout), flavor,
                id(t if base is None else base)))
        except Exception:  # NB: exotic subclasses may refuse any of the reads above
            return TensorRecord(path, ref, role, owner, _opaque_device(t, ctx), "?", (), 0, 0,
                                False, True, "?", "opaque", id(t))

    # -- generic values
    def value(self, obj: Any, path: str, ref: Ref, depth: int, seen: set[int], owner: str,
              role: str) -> None:
        tp = type(obj)
        if issubclass(tp, self.ctx.Tensor):
            self.tensor(obj, path, ref, role, owner)
        elif issubclass(tp, self.ctx.Module):
            self.module(obj, path, ref, 0, seen, trapped=role != "tensor")
        elif depth < MAX_DEPTH:
            self.container(obj, path, ref, depth, seen, owner, role)
        elif _tree.container_kind(obj):
            self.truncated = True

    def container(self, obj: Any, path: str, ref: Ref, depth: int, seen: set[int], owner: str,
                  role: str) -> None:
        kind = _tree.container_kind(obj)
        if kind is None or id(obj) in seen or not self.spend():
            return
        seen.add(id(obj))
        if kind != "dataclass" and _tree.container_len(obj, kind) > MAX_WIDTH:
            self.truncated = True
        for step, child in _tree.iter_children(obj, kind, MAX_WIDTH):
            self.value(child, _tree.display_step(path, step), (*ref, step), depth + 1, seen,
                       owner, role)
        seen.discard(id(obj))

    # -- modules
    def module(self, m: Any, path: str, ref: Ref, depth: int, seen: set[int],
               trapped: bool) -> None:
        if id(m) in seen or not self.spend():
            return
        seen.add(id(m))
        parts = _tree.module_parts(m, self.ctx.Tensor)
        start_t, start_m = len(self.tensors), len(self.modules)
        for role, items in (("parameter", parts.params), ("buffer", parts.buffers)):
            for name, t in items:
                if role == "parameter":
                    self.ctx.param_paths.setdefault(id(t), f"{path}.{name}")
                self.tensor(t, f"{path}.{name}", (*ref, Step("attr", name)),
                            "trapped" if trapped else role, path)
        for name, child in parts.children:
            self.module(child, f"{path}.{name}", (*ref, Step("attr", name, parts.hint)),
                        depth + 1, seen, trapped)
        for name, v in parts.attrs:
            step = Step("attr", name)
            if issubclass(type(v), self.ctx.Tensor):
                self.tensor(v, f"{path}.{name}", (*ref, step),
                            "trapped" if trapped else "attribute", path)
            elif _tree.container_kind(v) and not issubclass(type(v), self.ctx.Module):
                self.container(v, f"{path}.{name}", (*ref, step), 1, seen, path, "trapped")
        d = _tree.instance_dict(m) or {}
        self.modules.insert(start_m, _module_record(
            path, ref, type(m).__name__, self.tensors[start_t:], depth, trapped, "_hf_hook" in d))
        seen.discard(id(m))


_FLAVORS = {"FakeTensor": "fake", "DTensor": "dtensor", "FunctionalTensor": "subclass"}
_LAYOUTS: dict[Any, str] = {}


def _layout(layout: Any) -> str:
    name = str(layout).removeprefix("torch.")
    _LAYOUTS[layout] = name
    return name


def _opaque_device(t: Any, ctx: _Ctx) -> str:
    """The device from the C tensor header itself: no subclass property, no user code."""
    try:
        return str(ctx.torch._C.TensorBase.device.__get__(t))
    except Exception:
        return "?"


def _module_record(path: str, ref: Ref, type_name: str, tensors: list[TensorRecord], depth: int,
                   trapped: bool, hf_hook: bool) -> ModuleRecord:
    own = [t for t in tensors if t.role != "grad"]
    return ModuleRecord(
        path, ref, type_name, _devices(t.device for t in own),
        _uniq(t.dtype for t in own if _is_float(t.dtype)), len(own), _dedup_bytes(own), depth,
        trapped, hf_hook,
    )


def _is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def _uniq(items: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _devices(items: Any) -> tuple[str, ...]:
    return tuple(sorted(set(items), key=device_key))


def _dedup_bytes(tensors: list[TensorRecord] | tuple[TensorRecord, ...]) -> int:
    seen: dict[int, int] = {}
    for t in tensors:
        if seen.get(t.storage, -1) < t.nbytes:
            seen[t.storage] = t.nbytes
    return sum(seen.values())


# --- objects -------------------------------------------------------------------------------

def _walk_optimizer(w: _Walker, opt: Any, name: str, root: Ref | None = None) -> None:
    d = _tree.instance_dict(opt) or {}
    groups = d.get("param_groups") or []
    state = d.get("state") or {}
    root = root or (Step("name", name),)
    name = _tree.display_for(root)
    for g, group in enumerate(list.__iter__(groups) if type(groups) is list else ()):
        params = dict.get(group, "params", []) if issubclass(type(group), dict) else []
        for i, p in enumerate(params if type(params) is list else ()):
            if not issubclass(type(p), w.ctx.Tensor):
                continue
            owner = w.ctx.param_paths.get(id(p), "")
            pref = (*root, Step("group_param", (g, i)))
            ppath = _tree.display_for(pref)
            w.tensor(p, ppath, pref, "opt_param", owner)
            pstate: Any = dict.get(state, p, None) if issubclass(type(state), dict) else None
            if pstate is None or not issubclass(type(pstate), dict):
                continue
            label = owner or ppath
            for key, v in list(dict.items(pstate)):  # NB: copied first: step() may add to it
                if issubclass(type(v), w.ctx.Tensor) and type(key) is str and w.spend():
                    ref = (*root, Step("state", (g, i)), Step("item", key))
                    w.tensors.append(w.record(v, f"{name}.state[{label}][{key!r}]", ref, "state",
                                              label))


def _object(w: _Walker, obj: Any, name: str) -> ObjectRecord | None:
    tp = type(obj)
    root = (Step("name", name),)
    seen: set[int] = set()
    kind = "container"
    if issubclass(tp, w.ctx.Module):
        kind = "module"
        w.module(obj, name, root, 0, seen, trapped=False)
    elif issubclass(tp, w.ctx.Optimizer):
        kind = "optimizer"
        _walk_optimizer(w, obj, name)
    elif _tree.container_kind(obj) is not None:
        w.container(obj, name, root, 0, seen, "", "tensor")
    else:
        inner = _wrapped_optimizer(w, obj, root)
        if inner is not None:
            kind = "optimizer"
            _walk_optimizer(w, inner[0], name, inner[1])
    if not w.tensors and not w.modules:
        return None
    return _object_record(w, obj, name, kind)


def _wrapped_optimizer(w: _Walker, obj: Any, root: Ref) -> tuple[Any, Ref] | None:
    """An optimizer a plain object wraps (Lightning Fabric, training-loop helpers), one level
    down its instance ``__dict__``. NB: read through the dict, never through a property;
    modules, classes and functions (``torch``, ``nn``) are never wrappers."""
    if issubclass(type(obj), _NOT_WRAPPERS):
        return None
    for k, v in (_tree.instance_dict(obj) or {}).items():
        if type(k) is str and issubclass(type(v), w.ctx.Optimizer):
            return v, (*root, Step("attr", k))
    return None


def leaf_grad(t: Any) -> Any:
    """``t.grad`` read from the C header, and only where autograd keeps one (a leaf, or a tensor
    that called ``retain_grad()``). NB: reading ``.grad`` of any other tensor (``loss``) makes
    PyTorch warn, and a subclass's own ``grad`` property is user code."""
    import torch

    base: Any = torch._C.TensorBase
    if not (base.is_leaf.__get__(t) or base.retains_grad.__get__(t)):
        return None
    return base.grad.__get__(t)


def _tensor_object(w: _Walker, t: Any, name: str) -> ObjectRecord | None:
    """The fast path: most names in a big namespace are plain tensors."""
    if not w.spend():
        return None
    rec = w.record(t, name, (Step("name", name),), "tensor", "")
    tensors: tuple[TensorRecord, ...] = (rec,)
    grad = leaf_grad(t) if rec.requires_grad else None
    if grad is not None:
        w.tensor(grad, f"{name}.grad", (Step("name", name), Step("attr", "grad", "grad")),
                 "grad", name)
        tensors = (rec, *w.tensors)
    return _new_record(ObjectRecord, (
        name, "tensor", type(t).__name__, tensors, (), (rec.device,), (rec.dtype,), rec.nbytes,
        False, "", (), None, "", False))


def _object_record(w: _Walker, obj: Any, name: str, kind: str) -> ObjectRecord:
    tensors = tuple(w.tensors)
    # NB: an optimizer's 0-dim cpu counters (``step``) sit on the cpu by design: not its device
    own = [t for t in tensors if t.role not in ("grad", "opt_param")
           and not (t.role == "state" and t.shape == () and t.device == "cpu")]
    d = _tree.instance_dict(obj) or {}
    wrapper = type(obj).__name__ if type(obj).__name__ in _WRAPPERS else ""
    ids = d.get("device_ids") if wrapper else None
    out = d.get("output_device") if wrapper else None
    devmap = d.get("hf_device_map")
    dispatch = ""
    if (type(devmap) is dict and len({str(v) for v in devmap.values()}) > 1) or any(
            m.hf_hook for m in w.modules):
        dispatch = "accelerate"
    elif any(t.flavor == "dtensor" for t in own):
        dispatch = "dtensor"
    elif any(m.type_name == "FullyShardedDataParallel" for m in w.modules):
        dispatch = "fsdp"  # NB: flat parameters, maybe offloaded to the cpu: placed by FSDP
    ck = _tree.container_kind(obj) if kind == "container" else None
    return ObjectRecord(
        name=name, kind=kind, type_name=type(obj).__name__, tensors=tensors,
        modules=tuple(w.modules), devices=_devices(t.device for t in own),
        dtypes=_uniq(t.dtype for t in own), nbytes=_dedup_bytes(own), truncated=w.truncated,
        wrapper=wrapper,
        device_ids=tuple(int(i) for i in ids if type(i) is int) if type(ids) is list else (),
        output_device=out if type(out) is int else None, dispatch=dispatch,
        frozen=ck in ("tuple", "namedtuple") or (ck == "dataclass"
                                                and _tree.is_frozen_dataclass(type(obj))),
    )


_WRAPPERS = ("DataParallel", "DistributedDataParallel")
_NOT_WRAPPERS = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                 types.MethodType)
