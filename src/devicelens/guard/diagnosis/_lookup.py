"""Find objects by identity where the snapshot does not look: plain objects' attributes, the
functions and objects whose code failed.

A breadth-first walk from the namespace through containers, module parts and plain instances'
``__dict__`` (never properties, never ``__getattr__``), so the shortest user path wins:
``noise_scheduler.alphas_cumprod``, ``ema.ema_params[3]``. Bounded in depth and nodes; a
module's registered parts cost no depth (a deep model behind a plain object, ComfyUI's
``ModelPatcher``: ``bg_removal_model.model.bb.layers[0].blocks[0].attn``).
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from typing import Any

from ...inspect import _tree

MAX_DEPTH = 6  # NB: ``tg.init_model.line_encode.mlp[0].weight``: a model a plain object holds
MAX_NODES = 20_000
_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
         str, bytes, int, float, bool, complex, type(None))


IPYTHON_CACHE = re.compile(r"_+|_\d+|_i+|_i\d+|_[io]h|_dh|__.*__|_exit_code")


def _shells(obj: Any) -> bool:
    """IPython's and Jupyter's own objects (``exit``, the shell, its display hooks): their
    attributes lead back into the namespace itself (``exit._ip._user_ns``), never to a user's
    name."""
    return type(obj).__module__.startswith(("IPython.", "ipykernel.", "jupyter_client.",
                                            "traitlets.", "zmq."))


#: an optimizer's own attributes, walked above (``state``) or holding no stray of its own
_OPTIMIZER_OWN = frozenset({"state", "param_groups", "defaults"})


def find(namespace: dict[str, Any], targets: dict[int, Any]) -> dict[int, str]:
    """id -> the shortest code path (``a.b[0]``) of each object in ``targets`` found; an
    optimizer's state tensor as ``opt.state[...]['exp_avg']`` (no code form of its own)."""
    found: dict[int, str] = {}
    if not targets:
        return found
    names = [k for k in dict.keys(namespace) if type(k) is str and k not in ("In", "Out")]
    # NB: a private name the user wrote (``_x``) after every public one; IPython's output cache
    # (``_``, ``_5``, ``_oh``, ``_i3``) never
    names = ([k for k in names if not k.startswith("_")]
             + [k for k in names if k.startswith("_") and not IPYTHON_CACHE.fullmatch(k)])
    todo: list[tuple[Any, str, int]] = [(dict.get(namespace, k), k, 0) for k in names]
    seen: set[int] = set()
    budget = MAX_NODES
    i = 0
    while i < len(todo) and budget > 0 and len(found) < len(targets):
        obj, path, depth = todo[i]
        i += 1
        budget -= 1
        if id(obj) in targets and id(obj) not in found:
            found[id(obj)] = path
        if depth >= MAX_DEPTH or id(obj) in seen or issubclass(type(obj), _SKIP) or _shells(obj):
            continue
        seen.add(id(obj))
        todo += [(child, p, depth + (not part)) for child, p, part in _children(obj, path)]
    return found


def _children(obj: Any, path: str) -> Iterator[tuple[Any, str, bool]]:
    """Each child of ``obj`` with its path, and whether it is a module's registered part."""
    import torch

    tp = type(obj)
    if issubclass(tp, torch.Tensor):
        return
    if issubclass(tp, torch.nn.Module):
        parts = _tree.module_parts(obj)
        for name, v in (*parts.params, *parts.buffers, *parts.children):
            yield v, _attr(path, name, parts.hint), True
        for name, v in parts.attrs:
            yield v, _attr(path, name, parts.hint), False
        return
    kind = _tree.container_kind(obj)
    if kind is not None:
        for step, child in _tree.iter_children(obj, kind, 200):
            if step.kind != "pos":
                yield child, _tree._apply_step_code(path, step), False
        return
    if issubclass(tp, torch.optim.Optimizer):
        own = _tree.instance_dict(obj) or {}
        state: Any = own.get("state")
        if issubclass(type(state), dict):
            for per_param in dict.values(state):
                if issubclass(type(per_param), dict):
                    for key, v in dict.items(per_param):
                        yield v, f"{path}.state[...][{key!r}]", False
        groups: Any = own.get("param_groups")
        if type(groups) is list:  # NB: Prodigy keeps tensors beside each group's params
            for i, group in enumerate(groups):
                if type(group) is dict:
                    for key, v in dict.items(group):
                        if key != "params":
                            yield v, f"{path}.param_groups[{i}][{key!r}]", False
        # NB: what an optimizer keeps beside ``state`` (Shampoo's Kronecker factors in
        # ``self.preconditioner``): ``load_state_dict`` moves none of it
        for name, v in dict.items(own):
            if type(name) is str and not name.startswith("_") and name not in _OPTIMIZER_OWN:
                yield v, _attr(path, name, ""), False
        return
    d = _tree.instance_dict(obj)
    if d is not None:
        for name, v in dict.items(d):
            if type(name) is str and not name.startswith("__"):
                yield v, _attr(path, name, ""), False


def _attr(path: str, name: str, hint: str) -> str:
    return _tree._apply_step_code(path, _tree.Step("attr", name, hint))


def function_name(namespace: dict[str, Any], code: Any) -> str:
    """The namespace name of the plain function whose code object is ``code`` ('' if none)."""
    for k, v in dict.items(namespace):
        if type(v) is types.FunctionType and v.__code__ is code and type(k) is str:
            return k
    return ""


#: how deep below a name the cell reads its data is looked for (``train_loader.dataset.X``)
DATA_DEPTH = 5  # NB: ``scenario.train_stream[0].dataset.dataset``: what a benchmark wraps
DATA_NODES = 5_000


def data_read(namespace: dict[str, Any],
              roots: list[str]) -> Iterator[tuple[Any, _tree.Ref, tuple[Any, ...]]]:
    """The tensors and arrays under ``roots`` (names a cell reads), shallowest first, each with
    a path a fix can assign to (a name, a plain object's attribute, a dict's or a list's item)
    and the objects along that path (the root's first, the one that holds it last).

    NB: never a module's parameters or buffers, nor an optimizer's state (the rules' to fix, and
    moving them is no data fix), but a module's plain tensor attributes, which ``Module.to``
    and ``.float()`` leave as they are (view-GCN's float64 ``self.vertices``, built from NumPy);
    never through a tuple or a frozen object (no fix could rebind it).
    """
    import torch

    todo: list[tuple[Any, _tree.Ref, tuple[Any, ...]]] = [
        (dict.get(namespace, k), (_tree.step("name", k),), ()) for k in roots
        if type(k) is str and dict.__contains__(namespace, k)]
    seen: set[int] = set()
    i = 0
    while i < len(todo) and i < DATA_NODES:
        obj, ref, chain = todo[i]
        i += 1
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        tp = type(obj)
        if issubclass(tp, torch.Tensor) or _is_array(tp):
            yield obj, ref, chain
            continue
        if len(ref) > DATA_DEPTH or issubclass(tp, _SKIP) or _shells(obj) \
                or issubclass(tp, torch.optim.Optimizer):
            continue
        children = (_module_data(obj, ref) if issubclass(tp, torch.nn.Module)
                    else _assignable_children(obj, ref))
        todo += [(child, step, (*chain, obj)) for child, step in children]


def _module_data(m: Any, ref: _tree.Ref) -> list[tuple[Any, _tree.Ref]]:
    """A module's plain tensor attributes, and its submodules by attribute name (to look in
    theirs). NB: read from its instance ``__dict__`` and ``_modules``; no ``__getattr__`` runs."""
    import torch

    d = _tree.instance_dict(m) or {}
    out = [(v, (*ref, _tree.attr_step(k))) for k, v in list(dict.items(d))
           if type(k) is str and not k.startswith("_") and issubclass(type(v), torch.Tensor)
           and not issubclass(type(v), torch.nn.Parameter)]
    subs = d.get("_modules")
    if type(subs) is dict:
        out += [(v, (*ref, _tree.attr_step(k))) for k, v in list(dict.items(subs))
                if type(k) is str and k.isidentifier() and v is not None]
    return out


def _is_array(tp: type) -> bool:
    import sys

    np = sys.modules.get("numpy")
    return np is not None and issubclass(tp, np.ndarray)


def _assignable_children(obj: Any, ref: _tree.Ref) -> list[tuple[Any, _tree.Ref]]:
    kind = _tree.container_kind(obj)
    if kind in ("dict", "list"):
        return [(child, (*ref, s)) for s, child in _tree.iter_children(obj, kind, 200)
                if s.kind == "item"]
    if kind in ("dataclass", "namespace") and not _tree.is_frozen_dataclass(type(obj)):
        return [(child, (*ref, s)) for s, child in _tree.iter_children(obj, kind, 200)]
    if kind is not None:
        return []
    d = _tree.instance_dict(obj)
    if d is None:
        return []
    return [(v, (*ref, _tree.attr_step(name))) for name, v in dict.items(d)
            if type(name) is str and not name.startswith("_")]


def code_under(prefix: str, steps: _tree.Ref) -> str:
    """``prefix`` (an expression) followed by ``steps``, as code: ``a.b`` + ``['x']``."""
    for s in steps:
        prefix = _tree._apply_step_code(prefix, s)
    return prefix
