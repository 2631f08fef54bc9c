"""One namespace name -> its :class:`ObjectRecord`: a tensor, module, optimizer or container."""

from __future__ import annotations

import sys
import types
from itertools import compress
from operator import attrgetter, not_
from typing import Any

from . import _types
from ._model_columns import Sums, read_model
from ._optimizer_columns import read_state
from ._tree import Ref, display_for, module_parts, step
from ._walk import Ctx, Walker, dedup_bytes, devices_of, read_meta, uniq
from .records import ObjectRecord, TensorRecord

_new = tuple.__new__
_WRAPPERS = ("DataParallel", "DistributedDataParallel")


def walk_object(ctx: Ctx, name: str, obj: Any,
                regs: list[tuple[int, str]] | None = None) -> tuple[ObjectRecord | None, bool]:
    """The record of ``obj`` bound to ``name`` (None: it holds no tensors), and whether the
    walk was truncated. ``regs`` gets every (parameter id, path) the walk offered optimizers."""
    info = _types.info(type(obj))
    if info.what == "tensor":
        return walk_tensor(ctx, name, obj)
    w = Walker(ctx)
    if regs is not None:
        w.regs = regs
    root = (step("name", name),)
    sums: Sums | None = None
    if info.what == "module":
        kind = "module"
        sums = read_model(w, obj, name, root)  # NB: a plain model, read in columns
        if sums is None:
            w.module(obj, name, root, 0, False)
    elif info.what == "optimizer" and not hollow_optimizer(obj):
        kind = "optimizer"
        _optimizer(w, obj, name)
    elif info.what and info.what != "optimizer":
        kind = "container"
        w.container(obj, info.what, name, root, 0, "", "tensor")
    else:
        kind = "container"
        inner = wrapped_optimizer(obj)
        if inner is not None:
            kind = "optimizer"
            added = held_paths(w.ctx, obj, name)
            w.ctx.param_paths.update(added)
            try:
                _optimizer(w, inner[1], name, (*root, step("attr", inner[0])))
            finally:  # NB: its own optimizer's owners only: no other name's walk sees them
                for k in added:
                    del w.ctx.param_paths[k]
    if not w.tensors and not w.modules:
        return None, w.truncated
    return _object_record(w, obj, name, kind, sums), w.truncated


def walk_tensor(ctx: Ctx, name: str, t: Any) -> tuple[ObjectRecord | None, bool]:
    """A name bound to a tensor the compact rows do not take (a view, autograd, a subclass...)."""
    w = Walker(ctx)
    w.tensor(t, name, (step("name", name),), "tensor", "")
    if not w.tensors:
        return None, w.truncated
    rec = w.tensors[0]
    return _new(ObjectRecord, (name, "tensor", _types.info(type(t)).name, tuple(w.tensors), (),
                               (rec.device,), (rec.dtype,), rec.nbytes, False, "", (), None, "",
                               False)), w.truncated


def optimizer_state(opt: Any) -> tuple[Any, dict[int, Any]]:
    """An optimizer's param groups, and its state by parameter id. NB: by id, never by hashing
    a parameter (a tensor subclass may define ``__hash__``)."""
    d = _types.instance_dict(opt) or {}
    groups, state = d.get("param_groups"), d.get("state")
    by_id = (dict(zip(map(id, dict.keys(state)), dict.values(state), strict=True))
             if state is not None and issubclass(type(state), dict) else {})
    return groups, by_id


def optimizer_params(groups: Any, exact: tuple[type, type] | None = None,
                     ) -> list[tuple[int, int, Any]]:
    """(group, index, parameter) of every tensor an optimizer updates, in order."""
    out = []
    for g, group in enumerate(list.__iter__(groups) if type(groups) is list else ()):
        params = dict.get(group, "params", None) if issubclass(type(group), dict) else None
        for i, p in enumerate(list.__iter__(params) if type(params) is list else ()):
            tp = type(p)  # NB: the exact types first: no type lookup for the usual parameter
            if ((exact is not None and (tp is exact[1] or tp is exact[0]))
                    or _types.info(tp).what == "tensor"):
                out.append((g, i, p))
    return out


def wrapped_optimizer(obj: Any) -> tuple[str, Any] | None:
    """The optimizer a plain object wraps (Lightning Fabric, training-loop helpers), one level
    down its instance ``__dict__``, and its key. NB: read through the dict, never through a
    property; modules, classes and functions (``torch``, ``nn``) are never wrappers, nor are
    learning-rate schedulers: one holds its optimizer to set its learning rate, and the
    optimizer has its own name (``opt.step()`` is called on it), so read through the scheduler
    it would be shown and judged twice. NB: what the record of a plain object depends on
    (its token reads the same, :func:`._token.token`)."""
    tp = type(obj)
    if issubclass(tp, _NOT_WRAPPERS) or _is_scheduler(tp):
        return None
    for k, v in list(dict.items(_types.instance_dict(obj) or {})):
        if type(k) is str and _types.info(type(v)).what == "optimizer":
            return k, v
    return None


def hollow_optimizer(obj: Any) -> bool:
    """An ``Optimizer`` subclass that keeps no ``param_groups`` of its own and wraps another
    optimizer in its ``__dict__`` (fairseq's and ParlAI's ``MemoryEfficientFP16Optimizer``
    never call ``Optimizer.__init__``; their ``param_groups`` and ``state`` are properties of
    the inner one): read as a plain wrapper is, through the optimizer it holds."""
    d = _types.instance_dict(obj) or {}
    return "param_groups" not in d and wrapped_optimizer(obj) is not None


def trained_params(opt: Any) -> list[Any]:
    """Every tensor the optimizer ``opt`` updates, read through its ``__dict__`` (or that of the
    optimizer a hollow one wraps, :func:`hollow_optimizer`): never through a property, which
    is the user's code and may not exist."""
    if hollow_optimizer(opt):
        inner = wrapped_optimizer(opt)
        opt = inner[1] if inner is not None else opt
    groups, _ = optimizer_state(opt)
    return [p for _g, _i, p in optimizer_params(groups)]


def held_models(obj: Any) -> list[tuple[str, Any]]:
    """(attribute, module) of each module a plain wrapper of an optimizer holds beside it (a
    federated client's or an RL agent's ``self.model``), one level down its ``__dict__`` as
    :func:`wrapped_optimizer` reads the optimizer."""
    return [(k, v) for k, v in list(dict.items(_types.instance_dict(obj) or {}))
            if type(k) is str and _types.info(type(v)).what == "module"]


MAX_HELD_MODULES = 10_000


def held_paths(ctx: Ctx, obj: Any, name: str) -> dict[int, str]:
    """The path of every parameter of the modules the wrapper ``obj`` (bound to ``name``)
    holds, by id, where no module the namespace binds has named it already: the owners of the
    optimizer it holds beside them. NB: read through the modules' tables
    (:func:`._tree.module_parts`), as the walk reads them; no record is made. What the
    wrapper's record depends on besides its optimizer: its watch compares them
    (:class:`._optimizer_watch.WrappedWatch`)."""
    paths = ctx.param_paths
    out: dict[int, str] = {}
    seen: set[int] = set()
    for attr, m in held_models(obj):
        todo = [(m, f"{name}.{attr}")]
        while todo and len(seen) < MAX_HELD_MODULES:
            mod, at = todo.pop()
            if id(mod) in seen:
                continue
            seen.add(id(mod))
            parts = module_parts(mod)
            for k, p in parts.params:
                if id(p) not in paths:
                    out.setdefault(id(p), f"{at}.{k}")
            todo += [(sub, f"{at}.{k}") for k, sub in reversed(parts.children)]
    return out


def _is_scheduler(tp: type) -> bool:
    sched = sys.modules.get("torch.optim.lr_scheduler")
    base = getattr(sched, "LRScheduler", None)
    return isinstance(base, type) and issubclass(tp, base)


_NOT_WRAPPERS = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                 types.MethodType)


def _optimizer(w: Walker, opt: Any, name: str, root: Ref | None = None) -> None:
    groups, by_id = optimizer_state(opt)
    root = root or (step("name", name),)
    name = display_for(root)
    params = optimizer_params(groups, w.reader.exact)
    if read_state(w, root, name, params, by_id, _steps_of, _item_step):
        return
    paths, read = w.ctx.param_paths, w.ctx.param_records
    exact0, exact1 = w.reader.exact
    tensor, items = w.exact_tensor, _ITEM_STEPS
    for g, i, p in params:
        owner = paths.get(id(p), "")
        gstep, sstep = _steps_of(g, i)
        pref = (*root, gstep)
        ppath = f"{name}.param_groups[{g}].params[{i}]"  # NB: _tree.display_for(pref)
        hit = read.get(id(p))
        if hit is not None and hit[0] is p:  # NB: the very tensor: read a moment ago
            w.relabel(hit, ppath, pref, "opt_param", owner)
        else:
            tensor(p, ppath, pref, "opt_param", owner)
        pstate = by_id.get(id(p))
        if pstate is None or not issubclass(type(pstate), dict):
            continue
        label = owner or ppath
        sref = (*root, sstep)
        spath = f"{name}.state[{label}]"
        for key, v in list(dict.items(pstate)):  # NB: copied first: step() may add to it
            tp = type(v)
            if type(key) is str and (tp is exact0 or tp is exact1
                                     or _types.info(tp).what == "tensor"):
                kstep = items.get(key) or _item_step(key)
                tensor(v, f"{spath}[{kstep[1]}]", (*sref, kstep[0]), "state", label)


_ITEM_STEPS: dict[str, Any] = {}
_GROUP_STEPS: dict[tuple[int, int], tuple[Any, Any]] = {}


def _steps_of(g: int, i: int) -> tuple[Any, Any]:
    return _GROUP_STEPS.get((g, i)) or _group_steps(g, i)


def _group_steps(g: int, i: int) -> tuple[Any, Any]:
    """``Step("group_param", (g, i))`` and ``Step("state", (g, i))``, shared across snapshots:
    fewer objects kept means less for the garbage collector to scan."""
    if len(_GROUP_STEPS) > 100_000:
        _GROUP_STEPS.clear()
    gi = (g, i)
    s = _GROUP_STEPS[gi] = (step("group_param", gi), step("state", gi))
    return s


def _item_step(key: str) -> Any:
    """``Step("item", key)`` and ``repr(key)``, shared: optimizer state keys are a handful of
    names."""
    s = _ITEM_STEPS.get(key)
    if s is None:
        if len(_ITEM_STEPS) > 10_000:
            _ITEM_STEPS.clear()
        st = step("item", key)
        s = _ITEM_STEPS[key] = (st, repr(key))
    return s


def _object_record(w: Walker, obj: Any, name: str, kind: str,
                   sums: Sums | None = None) -> ObjectRecord:
    """``sums``: a model's, from its columns (:func:`read_model`): its records are not read
    again. NB: no record read in columns is a DTensor's (only exact tensors are)."""
    tensors = tuple(w.tensors)
    own: list[TensorRecord] = []
    if sums is None:
        own = _own(tensors)
        sums = devices_of(map(_DEVICE, own)), uniq(map(_DTYPE, own)), dedup_bytes(own)
    info = _types.info(type(obj))
    d = _types.instance_dict(obj) or {}
    wrapper = info.name if kind == "module" and info.name in _WRAPPERS else ""
    ids = d.get("device_ids") if wrapper else None
    out = d.get("output_device") if wrapper else None
    return _new(ObjectRecord, (
        name, kind, info.name, tensors, tuple(w.modules), *sums, w.truncated, wrapper,
        tuple(i for i in list.__iter__(ids) if type(i) is int) if type(ids) is list else (),
        out if type(out) is int else None, _dispatch(d, w, own),
        info.what in ("tuple", "namedtuple") or (info.what == "dataclass" and info.frozen)))


def _own(tensors: tuple[TensorRecord, ...]) -> list[TensorRecord]:
    """The tensors that say where an object is: not grads, nor the parameters an optimizer
    updates (their model's), nor an optimizer's 0-dim cpu counters (``step``: on the cpu by
    design)."""
    own = list(compress(tensors, map(not_, map(_NOT_OWN.__contains__, map(_ROLE, tensors)))))
    if not all(map(_SHAPE, own)):  # NB: C-speed scans first; 0-dim tensors judged one by one
        own = [t for t in own if not (t.role == "state" and t.shape == () and t.device == "cpu")]
    return own


def _dispatch(d: dict[str, Any], w: Walker, own: list[TensorRecord]) -> str:
    """Why a multi-device layout is intentional. NB: map values are compared as plain ints
    and strings only (``str()`` of a user object would run its code)."""
    devmap = d.get("hf_device_map")
    places = ({v for v in dict.values(devmap) if type(v) is int or type(v) is str}
              if type(devmap) is dict else set())
    hooks = set(map(_HF_HOOK, w.modules))
    if len(places) > 1 or "accelerate" in hooks:
        return "accelerate"
    if "dtensor" in map(_FLAVOR, own):
        return "dtensor"
    if "FullyShardedDataParallel" in map(_TYPE_NAME, w.modules):
        return "fsdp"  # NB: flat parameters, maybe offloaded to the cpu: placed by FSDP
    if "hook" in hooks:
        return "hooks"  # NB: a pre-hook of the user's sends inputs where a part is
    return ""


_NOT_OWN = frozenset({"grad", "opt_param"})
_ROLE, _SHAPE, _DEVICE = attrgetter("role"), attrgetter("shape"), attrgetter("device")
_DTYPE, _FLAVOR = attrgetter("dtype"), attrgetter("flavor")
_HF_HOOK, _TYPE_NAME = attrgetter("hf_hook"), attrgetter("type_name")

__all__ = ["hollow_optimizer", "optimizer_params", "optimizer_state", "read_meta", "trained_params",
           "walk_object", "walk_tensor"]
