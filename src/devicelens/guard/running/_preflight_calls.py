"""Calls, for the pre-flight's device inference: modules, torch functions, tensor methods.

A module called with a tensor on another device, a loss module whose weight sits elsewhere than
its inputs, tensors combined by a torch function or method: each becomes an :class:`Issue`.
"""

from __future__ import annotations

import ast
import types
from typing import TYPE_CHECKING, Any

from ._forward_lint import FACTORIES
from ._preflight_flow import (
    _MOVES,
    _MUTATORS,
    _NO_CHECK,
    _NOT_TENSOR,
    _WRAPPERS,
    Val,
    _label,
    norm_device,
)

if TYPE_CHECKING:
    from ._preflight_flow import Flow

Item = tuple[ast.expr | None, Val | None]


def call(flow: Flow, node: ast.Call) -> Val | None:
    items: list[Item] = [(a, flow.expr(a)) for a in node.args]
    kws: dict[str, Item] = {k.arg: (k.value, flow.expr(k.value)) for k in node.keywords if k.arg}
    for k in node.keywords:
        if not k.arg:
            kws.update(_double_star(flow, k.value))
    func = node.func
    fval: Val | None
    if isinstance(func, ast.Attribute):
        found = flow._resolve(func)
        if found is None:
            base = flow.expr(func.value)
            if base is not None and base.kind == "tensor":
                return _tensor_method(flow, node, func, base, items, kws)
            if base is not None and base.kind == "module":
                return _module_method(flow, node, func, base, items, kws)
            return None
        fval = flow.classify(*found)
    else:
        fval = flow.expr(func)
    if fval is None:
        return None
    if fval.kind == "module":
        return _module_call(flow, node, fval, items, kws)
    if fval.kind == "other" and _is_torch_fn(fval.obj):
        return _torch_call(flow, node, fval.obj, items, kws)
    return None


def _double_star(flow: Flow, node: ast.expr) -> dict[str, Item]:
    """``model(**batch)``: the dict's items as keyword arguments (lists of tensors included),
    named as the user writes them (``batch['labels'][0]``)."""
    from ...inspect import _tree

    v = flow.expr(node)
    if v is None or v.kind != "other" or _tree.container_kind(v.obj) not in ("dict", "userdict"):
        return {}
    base = v.code or ast.unparse(node)
    out: dict[str, Item] = {}
    for step, child in _tree.iter_children(v.obj, _tree.container_kind(v.obj) or "", 64):
        if step.kind != "item" or type(step.key) is not str:
            continue
        code = f"{base}[{step.key!r}]"
        kind = _tree.container_kind(child)
        if kind in ("list", "tuple"):
            elts = tuple((None, flow.classify(c, f"{code}[{i}]"))
                         for i, (_s, c) in enumerate(_tree.iter_children(child, kind, 64)))
            out[step.key] = (None, Val("seq", obj=elts))
        else:
            out[step.key] = (None, flow.classify(child, code))
    return out


def _is_torch_fn(obj: Any) -> bool:
    """A function of torch's (``torch.cat``, ``F.linear``). NB: only plain function types are
    asked for ``__module__``; any other object's attribute lookup could run user code."""
    if type(obj) not in (types.FunctionType, types.BuiltinFunctionType):
        return False
    mod = getattr(obj, "__module__", None) or ""
    return isinstance(mod, str) and (mod == "torch" or mod.startswith("torch."))


def _flat(items: list[Item], kws: dict[str, Item] | None = None) -> list[Item]:
    out: list[Item] = []
    for n, v in [*items, *(kws or {}).values()]:
        if v is not None and v.kind == "seq":
            out += list(v.obj)
        else:
            out.append((n, v))
    return out


def _target(flow: Flow, attr: str, node: ast.Call, items: list[Item],
            kws: dict[str, Item]) -> tuple[bool, str | None]:
    """(is a device move, the device it moves to or None when unknown)."""
    if attr == "cpu":
        return True, "cpu"
    if attr == "cuda":
        arg = node.args[0] if node.args else None
        idx = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, int) else 0
        return True, f"cuda:{idx}"
    for _n, v in ([items[0]] if items else []) + ([kws["device"]] if "device" in kws else []):
        if v is not None and v.kind in ("device", "tensor"):
            return True, v.device
        if v is not None and v.kind == "other" and v.obj is not None:
            d = norm_device(v.obj) if isinstance(v.obj, str) else None
            if d:
                return True, d
    moves = "device" in kws or bool(items and (items[0][1] is None or items[0][1].kind != "other"))
    return moves, None


def _tensor_method(flow: Flow, node: ast.Call, func: ast.Attribute, base: Val,
                   items: list[Item], kws: dict[str, Item]) -> Val | None:
    attr = func.attr
    if attr in _MOVES:
        moved, dev = _target(flow, attr, node, items, kws)
        if moved:
            return Val("tensor", dev, dtype=base.dtype) if dev else None
        return Val("tensor", base.device, dtype="")
    if attr in _NOT_TENSOR:
        return None
    if attr not in _NO_CHECK:
        flow.combine(node, [(func.value, base), *_flat(items, kws)])
    return Val("tensor", base.device, scalar=base.scalar, dtype=base.dtype)


def _module_method(flow: Flow, node: ast.Call, func: ast.Attribute, base: Val,
                   items: list[Item], kws: dict[str, Item]) -> Val | None:
    root = func.value
    while isinstance(root, ast.Attribute | ast.Subscript):
        root = root.value
    if isinstance(root, ast.Name) and func.attr in _MUTATORS:
        flow.rebound.setdefault(root.id, node.lineno)
    if func.attr in _MOVES:
        moved, dev = _target(flow, func.attr, node, items, kws)
        new = base._replace(device=dev) if moved else base
        if isinstance(func.value, ast.Name):
            flow.env[func.value.id] = new
        return new
    if func.attr in ("train", "eval", "requires_grad_", "float", "double", "half"):
        return base
    return None


def _torch_call(flow: Flow, node: ast.Call, fn: Any, items: list[Item],
                kws: dict[str, Item]) -> Val | None:
    name = getattr(fn, "__name__", "") or ""
    if "device" in kws:
        v = kws["device"][1]
        return Val("tensor", v.device) if v is not None and v.kind in ("device", "tensor") else None
    flat = _flat(items, kws)
    if name in FACTORIES:
        scalar = name == "tensor" and bool(node.args) and isinstance(node.args[0], ast.Constant)
        return Val("tensor", flow.default_device, scalar=scalar and flow.default_device == "cpu")
    if name.endswith("_like") or name in _NO_CHECK or name in _MOVES:
        first = next((v for _n, v in flat if v is not None and v.kind == "tensor"), None)
        return Val("tensor", first.device) if first else None
    return flow.combine(node, flat)


def _module_call(flow: Flow, node: ast.Call, m: Val, items: list[Item],
                 kws: dict[str, Item]) -> Val | None:
    """``model(x)``: the inputs must be where the parameters are; a loss module's weight must be
    where its inputs (and the model) are."""
    obj = m.obj
    d = {} if obj is None else (_tree_dict(obj))
    if type(obj).__name__ in _WRAPPERS or "_hf_hook" in d or "hf_device_map" in d:
        return None  # NB: these move their inputs themselves
    if obj is not None and _spans_accelerators(obj):
        return None  # NB: model parallel: where its input goes is its forward's business
    if obj is not None and _moving_hooks(obj):
        return None  # NB: a forward pre-hook of its own sends parts where the input is
    cpu_ok = _cpu_arguments(obj, node)
    moved = _arguments_moved(obj, node)
    flat = [(n, v) for n, v in _flat(items, kws)
            if v is not None and v.kind == "tensor" and v.device and not v.scalar
            and not (n is not None and id(n) in cpu_ok and v.device == "cpu")
            and not (n is not None and id(n) in moved)]
    if not m.device:
        return flow.combine(node, flat) if flat else None
    if m.buffers_only:
        inputs = list(dict.fromkeys(v.device for _n, v in flat if v.device))
        ref = flow.model_device or (inputs[0] if len(inputs) == 1 else None)
        if ref is not None and m.device != ref and not _moves_its_own(obj):
            flow.add("error", "loss_weight", node.lineno,
                     f"{m.code}'s weight tensors are on {m.device} but "
                     f"{'the model is' if flow.model_device else 'its inputs are'} on {ref}: "
                     f"{m.code}(...) will fail", f'{m.code}.to("{ref}")', [m.code])
        target = ref or m.device
    else:
        target = m.device
    for n, v in flat:
        if v.device != target:
            head = (f"{_label(n, v)} is on {v.device} but {m.code}'s other inputs are on "
                    f"{target}" if m.buffers_only else
                    f"{m.code} is on {target} but {_label(n, v)} is on {v.device}")
            flow.add("error", "module_input", node.lineno,
                     f"{head}: `{ast.unparse(node)[:60]}` will fail", flow.move_fix(n, v, target),
                     [v.code])
        elif flow.check_dtype and m.dtype and v.dtype.startswith("float") and v.dtype != m.dtype:
            flow.add("error", "module_input_dtype", node.lineno,
                     f"{m.code} is {m.dtype} but {_label(n, v)} is {v.dtype}",
                     f"{v.code} = {v.code}.to(torch.{m.dtype})" if v.code else
                     f"# cast {_label(n, v)} to torch.{m.dtype} first", [v.code])
    return Val("tensor", target, dtype=m.dtype if not m.buffers_only else "")


def _moves_its_own(m: Any) -> bool:
    """``m``'s ``forward`` moves every part of it that holds a tensor where it reads it: its
    own tensors (threestudio's solid-colour background: ``self.env_color.to(dirs)``) and its
    children that hold any, whole (tortoise's mel front end: ``self.mel_stft =
    self.mel_stft.to(inp.device)``). NB: ``__dict__``s and source only."""
    from ...inspect import _tree
    from ._forward_lint import moved_attributes

    if m is None:
        return False
    parts = _tree.module_parts(m)
    names = [k for k, t in (*parts.params, *parts.buffers) if t is not None]
    names += [k for k, c in parts.children if c is not None and any(
        (p := _tree.module_parts(s)).params or p.buffers for s in _tree.submodules(c, limit=200))]
    return bool(names) and set(names) <= moved_attributes(type(m))  # type: ignore[arg-type]


def _moving_hooks(m: Any) -> bool:
    """A forward pre-hook that is not torch's own (``weight_norm``'s recomputes, it moves
    nothing) on ``m`` or a module inside it: webui's ``--medvram`` ``send_me_to_gpu``,
    ComfyUI's low-VRAM weight streaming. Where a part runs is then decided at call time, so the
    pre-flight does not judge it. NB: ``__dict__``s and the hooks' types only."""
    from ...inspect import _tree

    for mod in _tree.submodules(m, limit=2_000):
        hooks = (_tree.instance_dict(mod) or {}).get("_forward_pre_hooks")
        for h in (list(dict.values(hooks)) if isinstance(hooks, dict) else []):
            where = h.__module__ if type(h) is types.FunctionType else type(h).__module__
            if not (isinstance(where, str) and where.startswith("torch.")):
                return True
    return False


def _spans_accelerators(m: Any) -> bool:
    from ..diagnosis._decide import is_pipeline

    return is_pipeline(m)


def _cpu_arguments(m: Any, node: ast.Call) -> set[int]:
    """ids of the call's argument nodes that the module's ``forward`` hands to an op that wants
    them on the cpu (``pack_padded_sequence``'s lengths), itself or through a part of it it
    hands them to as they came (a greedy searcher's encoder)."""
    from ._forward_lint import cpu_parameters

    if m is None:
        return set()
    names = tuple(p for p in names_of_forward(type(m)) if _fate(m, p, cpu_parameters, 0))
    return _argument_ids(m, node, names)


def _fate(m: Any, param: str, own: Any, depth: int) -> bool:
    """``param`` of ``m``'s ``forward`` is among ``own(type(m))`` (the parameters it moves,
    or wants on the cpu), or is handed as it came to a part of ``m`` whose own is."""
    from ._forward_lint import forward_params, passed_on

    cls = type(m)
    if param in own(cls):
        return True
    if depth >= _MAX_DELEGATES:
        return False
    for attr, slot in passed_on(cls).get(param, ()):  # type: ignore[arg-type]
        inner = _child(m, attr)
        if inner is None:
            continue
        names = forward_params(type(inner))  # type: ignore[arg-type]
        name = slot if isinstance(slot, str) else (names[slot] if slot < len(names) else "")
        if name and _fate(inner, name, own, depth + 1):
            return True
    return False


def _arguments_moved(m: Any, node: ast.Call, depth: int = 0) -> set[int]:
    """ids of the call's argument nodes that the module's ``forward`` moves to a device itself
    (a loss that moves the loader's cpu labels to its embeddings' device; a data-parallel
    wrapper moving its ``*inputs``), or hands on as they came to a part of it that does
    (DeepSpeed's ``InferenceEngine`` around a pipeline whose ``forward`` moves its prompt)."""
    from ._forward_lint import delegate, moved_parameters, moves_varargs

    if m is None:
        return set()
    cls = type(m)
    names = tuple(p for p in names_of_forward(cls) if _fate(m, p, moved_parameters, 0))
    out = _argument_ids(m, node, names)
    if moves_varargs(cls):  # type: ignore[arg-type]
        out |= {id(a) for a in node.args[len(names_of_forward(cls)):]}
    inner = _child(m, delegate(cls)) if depth < _MAX_DELEGATES else None  # type: ignore[arg-type]
    if inner is not None:
        out |= _arguments_moved(inner, node, depth + 1)
    return out


def _child(m: Any, attr: str) -> Any:
    """The submodule ``m`` registered as ``attr``, or None. NB: its ``_modules`` table only."""
    from ...inspect import _types

    table = _tree_dict(m).get("_modules")
    inner = dict.get(table, attr) if attr and type(table) is dict else None
    return inner if inner is not None and _types.info(type(inner)).what == "module" else None


#: how many wrappers handing their arguments on :func:`_arguments_moved` looks through
_MAX_DELEGATES = 4


def _argument_ids(m: Any, node: ast.Call, names: tuple[str, ...]) -> set[int]:
    if not names:
        return set()
    out = {id(k.value) for k in node.keywords if k.arg in names}
    params = names_of_forward(type(m))
    for i, a in enumerate(node.args):
        if i < len(params) and params[i] in names:
            out.add(id(a))
    return out


def names_of_forward(cls: type) -> list[str]:
    from ._forward_lint import forward_params

    return forward_params(cls)


def _tree_dict(obj: Any) -> dict[str, Any]:
    from ...inspect._tree import instance_dict

    return instance_dict(obj) or {}
