"""Decide once, per diagnosis, where the op's tensors belong, and which operands are culprits.

The device is the model's the op is used with: the module running it (the stage it belongs to,
for a deliberate pipeline), else the modules called on the user's failing line, else those the
cell calls, else a device the user's own code spelled out on that line, else the namespace's
model, else the one accelerator among the operands. Every fix of the diagnosis moves things
there, so no two of them contradict each other.
"""

from __future__ import annotations

import ast
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ...inspect import _tree
from ._blame import Operand, is_tensor, iter_params, majority_device, meta
from ._mismatch import is_float

# C++ and Python spellings of dtypes in messages -> torch names
_DTYPES = {"unsigned char": "uint8", "byte": "uint8", "signed char": "int8", "char": "int8",
           "short": "int16", "int": "int32", "long int": "int64", "long": "int64",
           "float": "float32", "double": "float64", "c10::half": "float16", "half": "float16",
           "c10::bfloat16": "bfloat16", "bfloat16": "bfloat16", "bool": "bool",
           "c10::complex<float>": "complex64", "c10::complex<double>": "complex128",
           "c10::complex<c10::half>": "complex32"}
_INT = ("int", "uint", "bool")
_MODEL_ROLES = ("parameter", "buffer", "attribute", "trapped")


def dtype_name(text: str) -> str:
    t = text.strip().lower().removeprefix("torch.")
    return _DTYPES.get(t, t)


def is_int(dtype: str) -> bool:
    return dtype.startswith(_INT)


# --- devices -----------------------------------------------------------------------------------

def module_target(m: Any) -> str | None:
    """Where a module is (or is being moved): its one device; split over the cpu and one
    accelerator, the accelerator (users move models *to* accelerators)."""
    params = list(iter_params(m, limit=20_000))
    if not params:
        buffers = [b for mod in _tree.submodules(m) for _n, b in _tree.module_parts(mod).buffers]
        return majority_device(b for b in buffers if b.dim() or b.is_floating_point())
    devices = {str(p.device) for p in params}
    if len(devices) == 1:
        return devices.pop()
    accel = devices - {"cpu"}
    if len(accel) == 1:
        return accel.pop()
    return majority_device(params)


def is_pipeline(m: Any) -> bool:
    """Several accelerators, each child on one of them: deliberate model parallelism."""
    devices = {str(p.device) for p in iter_params(m, limit=20_000)} - {"cpu"}
    return len(devices) > 1


def expected_device(operands: list[Operand], stack: list[Any], forced: str | None,
                    line_modules: list[Any], cell_modules: list[Any], explicit: str | None,
                    ns_device: str | None, named: tuple[str, ...] = (),
                    name_of: Any = None, op: str = "", cell_inputs: set[str] | None = None,
                    ns_data: Any = None, declared: str | None = None,
                    made_here: str | None = None, context: str | None = None) -> str:
    """``named``: the devices the error message names (a temporary's too); ``name_of``: a
    module's namespace name ('' when unknown); ``op``: the failing op (``cross_entropy``);
    ``cell_inputs``: the devices of the tensors the cell passes to the models it calls;
    ``ns_data``: gives how many of the namespace's tensors are on each device; ``declared``:
    the device the user's configuration names (:mod:`._declared`); ``made_here``: the default
    device, where the failing line makes a tensor there with a factory that names no device;
    ``context``: the device a ``with torch.device(...)`` block of the cell makes tensors on
    (:func:`device_context`), which decides where no model with weights does."""
    if forced:
        return forced
    seen = [o.device for o in operands if not o.scalar_cpu]
    # NB: a message that names device types only ("cuda", as a library's check says it) names
    # the operands' own cuda:N, not one more device
    named = tuple(d for d in named if ":" in d or not any(x.startswith(d + ":") for x in seen))
    devices = list(dict.fromkeys([*seen, *named]))
    outer = [m for m in reversed(stack) if any(True for _ in iter_params(m, limit=1))]
    if outer:
        model = outer[0]
        if is_pipeline(model):  # NB: the stage that runs the op decides, never the whole model
            d = module_target(stack[0]) if any(True for _ in iter_params(stack[0], 1)) else None
            # NB: a loss the split model computes itself (no stage of its own): where its
            # input, the last stage's logits, is; the labels follow (as transformers does)
            d = d or _loss_input(operands, op)
        else:
            d = module_target(model)
            inner = _replica(stack, model)
            if inner is not None:  # NB: DataParallel's copy on another GPU runs the op there
                d = module_target(inner)
            # NB: a model left on the cpu while the data was moved: the model goes (a stale
            # cache the model itself holds does not count as data; another model's weights do)
            own = _root_of(name_of(model)) if name_of is not None else ""
            data = {o.device for o in operands if o.device != "cpu" and not o.scalar_cpu
                    and (o.named.role not in _MODEL_ROLES
                         or (own and o.named.root and o.named.root != own))}
            # NB: unless the cell hands the model only cpu tensors: then nothing was moved
            # but what the model holds outside its weights (a cache of anchors made on the GPU)
            # NB: and unless the configuration says cpu (MSG-Net's ``--cuda 0``, with a style
            # loader that sends its images to the GPU by default)
            if d == "cpu" and len(data) == 1 and len(
                    {x for x in devices if x != "cpu"}) == 1 and cell_inputs != {"cpu"} \
                    and declared != "cpu":
                return data.pop()
            # NB: a model a library placed on its own default (Accelerate's best device,
            # rl_games' cuda:0) while the data is where the user's configuration says: the
            # model goes there
            # NB: not where the cell hands a model it put on an accelerator its inputs on that
            # same device (EMA-VFI on cuda:1: a grid cached on the configured cuda:0 is the
            # stray); a model and inputs left on the cpu are what was not moved
            if declared is not None and d != declared and inner is None \
                    and set(devices) == {d, declared} \
                    and (not cell_inputs or declared in cell_inputs or d == "cpu") and any(
                        o.device == declared and o.named.role not in _MODEL_ROLES
                        for o in operands if not o.scalar_cpu):
                return declared
        if d is not None and (d in devices or not devices):
            return d
    if context is not None and context in devices and len(devices) > 1:
        return context
    found = _one_device(line_modules, devices)
    if found is not None:
        return found
    found = _data_device(operands, made_here)
    if found is not None:
        return found
    found = _one_device(cell_modules, devices)
    if found is not None:
        return found
    if not outer and stack and cell_inputs is not None and len(cell_inputs) == 1 \
            and not any(map(_holds_tensors, (*stack, *cell_modules))):
        # NB: modules that hold no tensor (a noise layer, a traced forward written out) run
        # where the cell's input is: a device their own code spells out is what goes wrong
        (found,) = cell_inputs
        if found in devices:
            return found
    if explicit is not None and explicit in devices:
        return explicit
    if not outer and declared is not None and declared in devices:
        # NB: no model with weights runs the op (a weightless network fed a hypernetwork's
        # weights): the device the user's configuration names, before where most tensors are
        return declared
    if ns_device in devices:
        return str(ns_device)
    accel = [d for d in devices if d != "cpu"]
    if len(accel) == 1:
        return accel[0]
    if len(accel) > 1:
        # NB: two GPUs and no model to decide: where most of the op's operands are (a painter's
        # strokes and its net's outputs on cuda:0, one canvas on cuda:2), else where most of
        # the user's tensors are (a mesh, its camera and faces on cuda:2, one coefficient a
        # library made on cuda:0)
        names = {o.named.name: o.device for o in operands if not o.scalar_cpu}
        for count in (lambda: Counter(names.values()), ns_data):
            found = _most(accel, count()) if count is not None else None
            if found is not None:
                return found
    return devices[0] if devices else "cpu"


def _holds_tensors(m: Any) -> bool:
    """Whether module ``m`` or one below it holds a tensor: a parameter, a buffer or a plain
    tensor attribute (OpenMM's ``self.r0`` made on the model's device). NB: ``__dict__``s only."""
    if module_target(m) is not None:
        return True
    return any(is_tensor(v) for mod in _tree.submodules(m)
               for _k, v in _tree.module_parts(mod).attrs)


def _most(devices: list[str], count: Mapping[str, int]) -> str | None:
    """The one of ``devices`` with strictly the highest count; None on a tie."""
    ranked = sorted(devices, key=lambda d: -count.get(d, 0))
    return ranked[0] if count.get(ranked[0], 0) > count.get(ranked[1], 0) else None


_ARGS = {"argument 1": "input", "argument 2": "target"}


def _loss_input(operands: list[Operand], op: str) -> str | None:
    """The device of a loss's ``input`` when its ``target`` is elsewhere: named so by the
    loss's own frame (the post-mortem), or its first two arguments (the guard's loss op)."""
    loss = op.endswith("loss") or op in ("cross_entropy", "kl_div") \
        or op.startswith("binary_cross_entropy")
    found = {o.where.split(" in ")[0].strip("`"): o.device for o in operands
             if o.where.startswith(("`input` in ", "`target` in "))}
    if loss and not found:
        found = {_ARGS[o.where]: o.device for o in operands if o.where in _ARGS}
    if "input" in found and "target" in found and found["input"] != found["target"]:
        return found["input"]
    return None


def _replica(stack: list[Any], model: Any) -> Any:
    """The innermost module with weights that runs the op when it is a copy of a part of
    ``model``, the outermost, on an accelerator (``DataParallel``'s replica on another GPU): its
    device is the op's. NB: a copy is no registered part of ``model`` but has the type and the
    weight shapes of one; a helper left out of the model (in a plain list, on the cpu) is no
    copy, and its own device never decides."""
    inner = next((m for m in stack if any(True for _ in iter_params(m, limit=1))), None)
    parts = list(_tree.submodules(model)) if inner is not None else []
    if inner is None or any(sub is inner for sub in parts) or module_target(inner) in (
            None, "cpu"):
        return None
    shapes = _shapes(inner)
    return inner if any(type(sub) is type(inner) and _shapes(sub) == shapes
                        for sub in parts) else None


def _shapes(m: Any) -> list[tuple[int, ...]]:
    return [tuple(p.shape) for p in iter_params(m, limit=10_000)]


def _root_of(name: str) -> str:
    m = re.match(r"[A-Za-z_]\w*", name or "")
    return m.group(0) if m else ""


def _data_device(operands: list[Operand], made_here: str | None = None) -> str | None:
    """The one device of the op's data when what is elsewhere is only a scalar (a norm or a
    statistic left on the GPU, multiplied into cpu audio): PyTorch lets a 0-dim cpu tensor meet
    data on any device, never the reverse, and the scalar is what moves, not the data. NB: data
    has more than one element: a one-element state (a running baseline, `d_numerator`) or index
    (a diffusion step `t`) is no data a reduction or a table must follow; nor is a tensor the
    failing line makes unnamed on ``made_here``, the default device, with a factory that names
    no device (cornucopia's ``torch.rand(self.nk) * (vmax - vmin)``: the scalar is the data's)."""
    big = [o for o in operands if not o.what and math.prod(o.shape) > 1]
    data = {o.device for o in big}
    scalars = {o.device for o in operands if not o.what and o.shape == ()}
    if made_here is not None and data == {made_here} \
            and all(o.named.role == "unnamed" for o in big):
        return None
    if len(data) == 1 and scalars - data:
        return data.pop()
    return None


def made_on_default(stmt: ast.stmt | None, is_torch: Any) -> str | None:
    """The default device, where ``stmt`` calls a torch factory that names no device
    (``torch.rand(self.nk)``); None otherwise. ``is_torch(node)``: ``node`` names torch."""
    import torch

    from ._edits import FACTORIES

    if stmt is None:
        return None
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in FACTORIES and is_torch(node.func.value) \
                and not any(k.arg == "device" for k in node.keywords):
            return str(torch.get_default_device())
    return None


def device_context(tree: ast.AST | None, line: int, is_torch: Any) -> str | None:
    """The device a ``with torch.device(...)`` block around ``line`` of ``tree`` (the cell)
    makes every tensor on by default: a model built under ``with torch.device("meta")`` (vLLM,
    torchtitan) has its parts made there on purpose, and a tensor made with a device of its
    own spelled out is the stray. None where no such block encloses the line. NB: a literal
    device only; ``is_torch(node)``: ``node`` names torch."""
    from ..running._preflight_flow import norm_device

    found: str | None = None
    for node in ast.walk(tree) if tree is not None else ():
        if not isinstance(node, ast.With | ast.AsyncWith) \
                or not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        for item in node.items:
            e = item.context_expr
            if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) \
                    and e.func.attr == "device" and is_torch(e.func.value) and e.args \
                    and isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str):
                found = norm_device(e.args[0].value) or found  # NB: the innermost block wins
    return found


def _one_device(modules: Iterable[Any], devices: list[str]) -> str | None:
    found = [d for d in (module_target(m) for m in modules) if d is not None]
    found = [d for d in dict.fromkeys(found) if d in devices]
    return found[0] if len(found) == 1 else None


def explicit_device(stmt: ast.stmt | None) -> str | None:
    """A device the statement spells out (``x.cpu()``, ``device="cpu"``, ``.to("cuda:1")``)."""
    if stmt is None:
        return None
    found: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and _placed_operand(node.func.value):
            if node.func.attr == "cpu" and not node.args:
                found.append("cpu")
            elif node.func.attr == "to" and node.args and _const_device(node.args[0]):
                found.append(_const_device(node.args[0]) or "")
        if isinstance(node, ast.keyword) and node.arg == "device" and _const_device(node.value):
            found.append(_const_device(node.value) or "")
    found = list(dict.fromkeys(found))
    return found[0] if len(found) == 1 else None


def _placed_operand(receiver: ast.expr) -> bool:
    """``x.cpu()``, ``batch["y"].to("cuda:1")``: a name moved, which the op may be reading.
    NB: ``dist.icdf(level).cpu()`` or ``(a + b).to("cpu")`` moves a value still being computed
    when it fails: where the result goes says nothing of where the inputs must be."""
    return not any(isinstance(n, ast.Call | ast.BinOp | ast.UnaryOp | ast.Compare)
                   for n in ast.walk(receiver))


def _const_device(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(
            r"(cpu|meta|cuda:\d+|mps|xpu:\d+)", node.value):
        return node.value
    return None


# --- dtypes ------------------------------------------------------------------------------------

def expected_dtype(floats: list[Operand], stack: list[Any], line_modules: list[Any]) -> str:
    """The floating dtype the op's values should share: the model's (the running module's,
    else one called on the line), else a parameter's among them, else the most common (ties
    go to the default dtype). NB: a loss holding only buffers (class weights) is not a model."""
    import torch

    dts = list(dict.fromkeys(o.dtype for o in floats))
    for m in [*reversed(stack), *line_modules]:
        params = [p for p in iter_params(m) if p.is_floating_point()]
        if params:
            d = _majority(str(p.dtype).removeprefix("torch.") for p in params)
            if d in dts or not dts:
                return d
            break
    for o in floats:
        if o.named.role == "parameter":
            return o.dtype
    default = str(torch.get_default_dtype()).removeprefix("torch.")
    counts: dict[str, int] = {}
    for o in floats:
        if o.named.role != "buffer":
            counts[o.dtype] = counts.get(o.dtype, 0) + 1
    return max(dts, key=lambda d: (counts.get(d, 0), d == default)) if dts else default


def _majority(items: Iterable[str]) -> str:
    count: dict[str, int] = {}
    for i in items:
        count[i] = count.get(i, 0) + 1
    return max(count, key=count.__getitem__)


def value_floats(operands: list[Operand]) -> list[Operand]:
    return [o for o in operands if is_float(o.dtype) and o.shape != ()]


def local_name(where: str) -> str:
    """``target`` for an operand found as "`target` in cross_entropy" or passed as target=."""
    m = re.match(r"`(\w+)` in ", where) or re.match(r"(\w+)=$", where)
    return m.group(1) if m else ""


def modules_called(stmt: ast.stmt | None, resolve: Any) -> list[Any]:
    """Modules with parameters the statement calls (``model(x)``, ``self.fc(h)``)."""
    import torch

    if stmt is None:
        return []
    out: list[Any] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call):
            obj = resolve(node.func)
            # NB: a loss holding only class weights is not a model: its inputs decide
            if issubclass(type(obj), torch.nn.Module) and not any(obj is m for m in out) \
                    and any(True for _ in iter_params(obj, limit=1)):
                out.append(obj)
    return out


def inputs_passed(stmt: ast.stmt | None, resolve: Any) -> set[str]:
    """The devices of the tensors the statement passes to the modules it calls (``x`` of
    ``model(x)``, and of a model's own method: ``model.generate(tokens=x)``; a dict's, list's
    or tuple's tensors one level down), read without running."""
    import torch

    out: set[str] = set()
    for node in ast.walk(stmt) if stmt is not None else ():
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        owner = func.value if isinstance(func, ast.Attribute) and not func.attr.startswith(
            "_") and func.attr not in _NOT_INPUTS else None
        # NB: a model's own method only: a trainer that holds one (``classifier.predict``)
        # may move its inputs to its own device setting, which then decides
        if not issubclass(type(resolve(func)), torch.nn.Module) and not (
                owner is not None and issubclass(type(resolve(owner)), torch.nn.Module)):
            continue
        for arg in (*node.args, *(k.value for k in node.keywords)):
            v = resolve(arg.value if isinstance(arg, ast.Starred) else arg)
            held = (list(dict.values(v)) if type(v) is dict else list(v)
                    if type(v) in (list, tuple) else [v])
            heads = [meta(t) for t in held if is_tensor(t)]
            out.update(str(m[0]) for m in heads if m is not None)
    return out


#: a module's methods whose tensor arguments are no input of its forward pass
_NOT_INPUTS = frozenset({"load_state_dict", "register_buffer", "register_parameter", "to",
                         "cuda", "cpu", "type", "apply", "add_module", "register_module",
                         "set_extra_state", "copy_", "requires_grad_"})


def tensors_of(values: Iterable[Any]) -> list[Any]:
    return [v for v in values if is_tensor(v)]
