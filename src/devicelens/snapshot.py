"""Namespace -> frozen :class:`Snapshot`: where every tensor, module and optimizer state lives.

Metadata only: device, dtype, shape, sizes and flags are read from tensor headers, so taking a
snapshot never reads data, never synchronises a GPU and never initialises CUDA. Walking user
objects is delegated to :mod:`devicelens._tree`, which never runs user code.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import _tree
from ._tree import Ref, Step

MAX_DEPTH = 6
MAX_WIDTH = 1000
MAX_NODES = 500_000


class TensorRecord(NamedTuple):
    """One tensor reachable from the namespace.

    NB: a ``NamedTuple`` rather than a frozen dataclass: it is just as immutable and about five
    times cheaper to build, which matters at 100k tensors per snapshot.
    """

    path: str  # what users read: model.encoder.layers.3.attn.in_proj_weight, batch['x']
    ref: Ref  # how to find it again (moves) and how to write it in code (fixes)
    role: str  # tensor | parameter | buffer | attribute | trapped | grad | opt_param | state
    owner: str  # module path for params/buffers/traps; parameter path for optimizer state
    device: str
    dtype: str
    shape: tuple[int, ...]
    numel: int
    nbytes: int
    requires_grad: bool
    is_leaf: bool
    layout: str
    flavor: str  # dense | sparse | nested | quantized | fake | dtensor | subclass | opaque
    storage: int  # identity of the underlying storage (a view shares its base's)


class ModuleRecord(NamedTuple):
    """One submodule, aggregated over its whole subtree."""

    path: str
    ref: Ref
    type_name: str
    devices: tuple[str, ...]
    dtypes: tuple[str, ...]
    n_tensors: int
    nbytes: int
    depth: int
    trapped: bool  # held in a plain list/dict attribute: Module.to() will not move it
    hf_hook: bool  # accelerate has attached a dispatch hook


class ObjectRecord(NamedTuple):
    """One name in the namespace that holds tensors (a tensor, module, optimizer or container).

    NB: records are ``NamedTuple``s (immutable, and cheap to build at 100k per snapshot).
    """

    name: str
    kind: str  # tensor | module | optimizer | container
    type_name: str
    tensors: tuple[TensorRecord, ...]
    modules: tuple[ModuleRecord, ...] = ()
    devices: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    nbytes: int = 0
    truncated: bool = False
    wrapper: str = ""  # DataParallel | DistributedDataParallel
    device_ids: tuple[int, ...] = ()
    output_device: int | None = None
    dispatch: str = ""  # why a multi-device layout is intentional: accelerate | dtensor
    frozen: bool = False  # immutable container (tuple, namedtuple, frozen dataclass)


class DeviceTotal(NamedTuple):
    device: str
    objects: int
    tensors: int
    nbytes: int


class DeviceInfo(NamedTuple):
    name: str  # cpu, cuda:0, mps, xpu:0, meta
    kind: str
    free_bytes: int | None  # known only where reading it cannot initialise anything
    total_bytes: int | None


@dataclass(frozen=True)
class Snapshot:
    objects: tuple[ObjectRecord, ...]
    totals: tuple[DeviceTotal, ...]
    devices: tuple[DeviceInfo, ...]
    truncated: bool = False
    torch_version: str | None = None
    skipped: tuple[str, ...] = ()  # names whose walk failed: reported, never raised
    _by_name: dict[str, ObjectRecord] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, name: str) -> ObjectRecord:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def tensors(self) -> list[TensorRecord]:
        return [t for o in self.objects for t in o.tensors]

    def to_json(self, *, all_tensors: bool = False) -> dict[str, Any]:
        from ._protocol import snapshot_to_wire

        return dict(snapshot_to_wire(self, all_tensors=all_tensors))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        from .render import mimebundle

        return mimebundle(self, None)


# --- walking -------------------------------------------------------------------------------

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
        if rec.requires_grad and role != "state" and t.grad is not None:
            gref = (*ref, Step("attr", "grad", "grad"))
            self.tensors.append(self.record(t.grad, f"{path}.grad", gref, "grad", path))

    def record(self, t: Any, path: str, ref: Ref, role: str, owner: str) -> TensorRecord:
        ctx = self.ctx
        tp = type(t)
        flavor = "dense" if tp in ctx.dense else _FLAVORS.get(tp.__name__, "subclass")
        try:
            dev = t.device
            device = ctx.dev.get(dev) or ctx.dev.setdefault(dev, str(dev))
            dt = t.dtype
            dtname, itemsize, quantized = ctx.dt.get(dt) or ctx.dtype(dt)
            layout = t.layout
            if layout is not ctx.strided:
                flavor, shape, numel = "sparse", tuple(t.shape), t.numel()
            elif t.is_nested:
                flavor, shape, numel = "nested", (), t.numel()
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
            return TensorRecord(path, ref, role, owner, _safe_str(t, "device"), "?", (), 0, 0,
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


def _safe_str(t: Any, attr: str) -> str:
    try:
        return str(type(t).__dict__.get(attr, None) and getattr(t, attr))
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


def device_key(device: str) -> tuple[int, str, int]:
    """Display order: cpu, then accelerators by type and index, meta last."""
    kind, _, index = device.partition(":")
    rank = 0 if kind == "cpu" else 2 if kind == "meta" else 1
    return rank, kind, int(index) if index.isdigit() else -1


def _devices(items: Any) -> tuple[str, ...]:
    return tuple(sorted(set(items), key=device_key))


def _dedup_bytes(tensors: list[TensorRecord] | tuple[TensorRecord, ...]) -> int:
    seen: dict[int, int] = {}
    for t in tensors:
        if seen.get(t.storage, -1) < t.nbytes:
            seen[t.storage] = t.nbytes
    return sum(seen.values())


# --- objects -------------------------------------------------------------------------------

def _walk_optimizer(w: _Walker, opt: Any, name: str) -> None:
    d = _tree.instance_dict(opt) or {}
    groups = d.get("param_groups") or []
    state = d.get("state") or {}
    root = (Step("name", name),)
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
            for key, v in dict.items(pstate):
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
    else:
        w.container(obj, name, root, 0, seen, "", "tensor")
    if not w.tensors and not w.modules:
        return None
    return _object_record(w, obj, name, kind)


def _tensor_object(w: _Walker, t: Any, name: str) -> ObjectRecord | None:
    """The fast path: most names in a big namespace are plain tensors."""
    if not w.spend():
        return None
    rec = w.record(t, name, (Step("name", name),), "tensor", "")
    tensors: tuple[TensorRecord, ...] = (rec,)
    if rec.requires_grad and t.grad is not None:
        w.tensor(t.grad, f"{name}.grad", (Step("name", name), Step("attr", "grad", "grad")),
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


def _user_namespace() -> dict[str, Any]:
    ipy_mod = sys.modules.get("IPython")
    shell = ipy_mod.get_ipython() if ipy_mod is not None else None
    if shell is None:
        raise ValueError("no namespace given and not running inside IPython")
    return shell.user_ns  # type: ignore[no-any-return]


def _candidates(namespace: dict[str, Any], names: list[str] | None) -> list[tuple[str, Any]]:
    if names is not None:
        return [(n, namespace[n]) for n in names if n in namespace]
    hidden = namespace.get("_devicelens_hidden", ())
    return [(k, v) for k, v in dict.items(namespace)
            if type(k) is str and not k.startswith("_") and k not in ("In", "Out")
            and k not in hidden]


def take_snapshot(namespace: dict[str, Any] | None = None, *, names: list[str] | None = None,
                  max_nodes: int = MAX_NODES) -> Snapshot:
    """Snapshot ``namespace`` (default: the IPython user namespace), optionally only ``names``.

    Never raises for anything found in the namespace: a name whose walk fails is listed in
    ``Snapshot.skipped``. Raises ``ValueError`` when there is no namespace to look at and
    ``ModuleNotFoundError`` when torch is not importable.
    """
    if namespace is None:
        namespace = _user_namespace()
    import torch

    items = _candidates(namespace, names)
    # NB: modules first, so optimizers can name their parameters by module path.
    Module = torch.nn.Module
    order = sorted(items, key=lambda kv: 0 if issubclass(type(kv[1]), Module) else 1)
    ctx = _Ctx(torch, max_nodes)
    records: dict[str, ObjectRecord] = {}
    totals = _Totals()
    skipped: list[str] = []
    truncated = False
    gc_was_on = gc.isenabled()
    gc.disable()  # NB: records are acyclic; collecting mid-walk only costs time (superlinear)
    try:
        with torch._C.DisableTorchFunctionSubclass():
            w = _Walker(ctx)
            for name, obj in order:
                if w.tensors or w.modules or w.truncated:
                    w = _Walker(ctx)
                try:
                    if issubclass(type(obj), ctx.Tensor):
                        rec = _tensor_object(w, obj, name)
                    else:
                        rec = _object(w, obj, name)
                except Exception:  # NB: a hostile object costs its own row, never the snapshot
                    skipped.append(name)
                    continue
                truncated |= w.truncated
                if rec is not None:
                    records[name] = rec
                    totals.add(rec)
    finally:
        if gc_was_on:
            gc.enable()
    objects = tuple(records[n] for n, _ in items if n in records)
    return Snapshot(objects, totals.result(), available_devices(torch), truncated,
                    torch.__version__, tuple(skipped), records)


class _Totals:
    """Per-device objects, tensors and bytes, accumulated while each record is hot in cache.

    NB: each storage counts once, however many names reach it.
    """

    def __init__(self) -> None:
        self.objs: dict[str, int] = {}
        self.count: dict[str, int] = {}
        self.storages: dict[int, tuple[str, int]] = {}

    def add(self, o: ObjectRecord) -> None:
        objs, count, storages = self.objs, self.count, self.storages
        for dev in o.devices:
            objs[dev] = objs.get(dev, 0) + 1
        for t in o.tensors:
            if t.role == "opt_param":
                continue
            count[t.device] = count.get(t.device, 0) + 1
            prev = storages.get(t.storage)
            if prev is None or prev[1] < t.nbytes:
                storages[t.storage] = (t.device, t.nbytes)

    def result(self) -> tuple[DeviceTotal, ...]:
        nbytes: dict[str, int] = {}
        for dev, n in self.storages.values():
            nbytes[dev] = nbytes.get(dev, 0) + n
        return tuple(DeviceTotal(d, self.objs.get(d, 0), self.count[d], nbytes.get(d, 0))
                     for d in sorted(self.count, key=device_key))


def available_devices(torch: Any) -> tuple[DeviceInfo, ...]:
    """Devices this process can use. NB: free memory only where CUDA is already initialised."""
    out = [DeviceInfo("cpu", "cpu", None, None)]
    try:
        if torch.cuda.is_initialized():
            for i in range(torch.cuda.device_count()):
                free, total = torch.cuda.mem_get_info(i)
                out.append(DeviceInfo(f"cuda:{i}", "cuda", int(free), int(total)))
        else:
            acc = getattr(torch, "accelerator", None)
            if acc is not None and acc.is_available():
                kind = acc.current_accelerator().type
                out += [DeviceInfo(f"{kind}:{i}", kind, None, None)
                        for i in range(acc.device_count())]
            elif torch.backends.mps.is_available():
                out.append(DeviceInfo("mps", "mps", None, None))
    except Exception:  # NB: a broken driver must not break the snapshot
        pass
    out.append(DeviceInfo("meta", "meta", None, None))
    return tuple(out)
