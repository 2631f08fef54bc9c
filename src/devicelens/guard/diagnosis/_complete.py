"""The rest of the failing cell: everything else it will trip on, so one fix lets it run.

Two sources, both read-only: the snapshot's findings about the objects the failing line uses
(optimizer state left behind, a DataParallel module on the wrong GPU), and the pre-flight of the
whole cell (a label tensor and a class weight the next lines will meet). Only fixes that agree
with the diagnosis' one expected device are kept: never ``x.to("cpu")`` next to
``model.to("meta")``.
"""

from __future__ import annotations

import linecache
import re
from typing import Any

from ..families._held import held_strays
from . import _source
from ._blame import Named, Operand, describe_tensor, is_tensor
from ._context import Blame, Ctx, Failure
from ._trace import Want

_DEVICE_ISSUES = ("mixed_operands", "module_input", "loss_weight", "optimizer_state",
                  "trap_attribute", "trap_module", "trap_container", "dataparallel_device",
                  "module_split",
                  "optimizer_orphan")
_DTYPE_ISSUES = ("mixed_dtypes", "module_input_dtype", "optimizer_state_dtype")
_MOVE_TO = re.compile(r"""\.to\(["']([^"']+)["']\)""")


def cell_extras(ctx: Ctx, failure: Failure, expected: str,
                blames: list[Blame]) -> tuple[list[Blame], set[str]]:
    """Extra culprits (with their fixes) and the roots whose own fix a finding replaces."""
    if failure.kind == "index_dtype" or (failure.rule is not None and failure.rule.role in (
            "host", "load", "meta", "legacy", "lengths", "mask", "target", "dest")):
        return [], set()
    named = {b.operand.named.name for b in blames if b.operand is not None}
    extras, covered, own_doing = _findings(ctx, failure, expected, named)
    if failure.kind == "device":
        held, roots = held_strays(ctx, expected, named)
        extras, covered = extras + held, covered | roots
        named |= {b.operand.named.name for b in held if b.operand is not None}
    named |= covered
    extras += _preflight(ctx, failure, expected, named, own_doing)
    return extras, covered


_LAYER = re.compile(r"(.+)\[(\d+)\]((?:\.\w+)+)")
#: at most this many other layers get a culprit line each
MAX_LAYERS = 8


def layer_siblings(ctx: Ctx, failure: Failure, expected: str, blames: list[Blame]) -> list[Blame]:
    """The same tensor in the other layers of a stack (``h[1].attn.causal_mask`` after
    ``h[0].attn.causal_mask``), as wrong as the culprit: the next layer would trip on it. Each
    gets its own fix line where the culprit has one; an edit of the layers' shared code covers
    them all. Weights are left out: the model's move that fixes one moves them all.
    NB: the layers are read from the ``ModuleList``'s ``__dict__``, no user code."""
    import torch

    from ...inspect._types import instance_dict
    from ._naming import fix_line
    from ._trace import Origin, Want

    attr = "device" if failure.kind == "device" else "dtype"
    named = {b.operand.named.name for b in blames if b.operand is not None}
    out: list[Blame] = []
    for b in blames:
        op = b.operand
        m = _LAYER.fullmatch(op.named.code) if op is not None and op.named.code else None
        stack = ctx.resolve(m.group(1)) if m else None
        if op is None or m is None or op.named.role == "parameter" or not issubclass(
                type(stack), torch.nn.ModuleList | torch.nn.Sequential):
            continue  # NB: a layer's weights move with their model, whose fix covers them
        layers = (instance_dict(stack) or {}).get("_modules") or {}
        for key in layers:
            code = f"{m.group(1)}[{key}]{m.group(3)}"
            if not str(key).isdigit() or key == m.group(2) or _covered(code, named):
                continue
            t = _attribute_path(layers[key], m.group(3))
            if not is_tensor(t) or issubclass(type(t), torch.nn.Parameter) or _trained(t):
                continue
            if str(getattr(describe_tensor(t, "", None), attr)) != str(getattr(op, attr)):
                continue
            if attr == "device" and _with_its_layer(layers[key], op.device, layers[m.group(2)]):
                continue
            named.add(code)
            sib = describe_tensor(t, f"as in {m.group(1)}[{m.group(2)}]",
                                  Named(code, code, op.named.role, op.named.root))
            want = Want(failure.kind, sib.device, sib.dtype, expected,
                        failure.rule.want if failure.rule is not None else "")
            fix = fix_line(ctx, Origin(code, code, t, op.named.role), failure, expected, want) \
                if b.fixes else ""
            out.append(Blame(sib, (fix,) if fix else ()))
            if len(out) >= MAX_LAYERS:
                return out
    return out


def _with_its_layer(layer: Any, device: str, culprit_layer: Any) -> bool:
    """``layer``'s weights are on ``device`` and the culprit's layer's are not: a model split
    over GPUs layer by layer (a device map), where this layer's tensor on ``device`` sits with
    its own layer (RecurrentGemma's per-layer cache on cuda:0 for the layers on cuda:0)."""
    from ._blame import iter_params, majority_device

    mine = list(iter_params(layer, 10_000))
    theirs = list(iter_params(culprit_layer, 10_000))
    return bool(mine) and bool(theirs) and majority_device(mine) == device \
        and majority_device(theirs) != device


def _trained(t: Any) -> bool:
    """A weight (it requires grad), whatever class a simulated device gave it."""
    import torch

    try:
        return bool(torch._C.TensorBase.__dict__["requires_grad"].__get__(t))
    except Exception:
        return False


def _attribute_path(obj: Any, path: str) -> Any:
    """``obj`` + ``.attn.causal_mask``, through modules' parameters, buffers, submodules and
    ``__dict__``s only (no ``__getattr__``, no property); ``None`` where one is missing."""
    from ...inspect._types import instance_dict

    for attr in path.strip(".").split("."):
        d = instance_dict(obj) or {}
        stores = [d.get(k) for k in ("_parameters", "_buffers", "_modules")]
        found = next((st[attr] for st in stores if type(st) is dict and attr in st), None)
        obj = found if found is not None else d.get(attr)
        if obj is None:
            return None
    return obj


def _covered(name: str, named: set[str]) -> bool:
    """``batch['y']`` is covered by ``batch['y']``, ``batch`` or ``batch['y'][0]``, not by
    ``batch['x']``: one object, one culprit line. ``model.1`` and ``model[1]`` are one name
    (a snapshot path and the same path spelled as code)."""
    name = _dotted(name)
    return any(name == n or name.startswith((n + "[", n + ".")) or n.startswith(
        (name + "[", name + ".")) for n in map(_dotted, named))


def _inside(name: str, named: set[str]) -> bool:
    """``name`` is named itself, or something it is inside is (not only a part of it)."""
    name = _dotted(name)
    return any(name == n or name.startswith((n + "[", n + ".")) for n in map(_dotted, named))


def _dotted(name: str) -> str:
    return re.sub(r"\[(\d+)\]", r".\1", name)


def _root(name: str) -> str:
    m = re.match(r"[A-Za-z_]\w*", name)
    return m.group(0) if m else ""


def _consistent(failure: Failure, expected: str, fix: str, device: str | None) -> bool:
    if failure.kind != "device":
        return True
    if device is not None and device != expected:
        return False
    return all(d == expected for d in _MOVE_TO.findall(fix))


def _findings(ctx: Ctx, failure: Failure, expected: str,
              named: set[str]) -> tuple[list[Blame], set[str], set[str]]:
    """The findings' culprits, the objects they cover, and the modules split only by the
    failing call's own doing (:func:`_remade_by_running_code`), which the cell's pre-flight
    must not blame either."""
    from ...analysis import DEVICE_KINDS, DTYPE_KINDS, diagnose

    snap = ctx.namer.build()
    if snap is None:
        return [], set(), set()
    kinds = DEVICE_KINDS if failure.kind == "device" else DTYPE_KINDS
    on_line = _line_names(ctx) | {_root(n) for n in named}
    out: list[Blame] = []
    covered: set[str] = set()
    own_doing: set[str] = set()
    for f in diagnose(snap):
        if _loop_alias(ctx, f):
            continue
        if f.kind == "module_split" and _remade_by_running_code(ctx, f):
            own_doing |= set(f.objects)
            continue
        # NB: a plain attribute of a module with no weights is a note until a cell fails on it
        proven = f.kind == "trap_unplaced" and any(_covered(p, named) for p in f.paths)
        if f.kind not in kinds or (f.severity != "error" and not proven) \
                or not set(f.objects) & on_line:
            continue
        device = f.action.device if f.action is not None else None
        if not _consistent(failure, expected, f.fix, device) or _remade_by_running_code(ctx, f):
            continue
        covered |= set(f.objects)
        roots = {_root(n) for n in named}
        operands = [_object_operand(ctx, o, f.title) for o in f.objects[:1]
                    if not _covered(o, named) and o not in roots]
        trapped = _trapped_path(f)
        if not operands and trapped and not _covered(trapped, named):
            # NB: another container or attribute of an object already named (the anchor
            # grids beside the grids of a detection head): a line of its own, as it will fail
            operands = [_object_operand(ctx, trapped, f.title)]
        out += [Blame(op, (f.fix,), (), (f.message,)) for op in operands] or [
            Blame(None, (f.fix,), (), (f.message,))]
        if f.kind == "module_split":
            out += [Blame(op) for op in _split_strays(snap, f, named)]
        if len(out) >= 3:
            break
    return out, covered, own_doing


def _loop_alias(ctx: Ctx, f: Any) -> bool:
    """A finding about a name the cell's own loop rebinds (``block`` of ``for block in
    model.blocks``) whose object has a lasting name (``model.blocks[1]``): the finding under
    that name says it once, where a fix made under the loop's name would not last."""
    objects = set(f.objects)
    if not objects or not objects <= ctx.namer.loop_names():
        return False
    return all(ctx.namer.owner(ctx.resolve(o)) not in ("", o) for o in objects)


_TRAPS = ("trap_attribute", "trap_unplaced", "trap_container")


def _trapped_path(f: Any) -> str:
    """The plain list or attribute a trap finding is about, as code (``model.head.grids``);
    '' for another finding or a path that is no code."""
    if f.kind not in _TRAPS or not f.paths:
        return ""
    path = f.paths[0] if f.kind != "trap_container" else f.paths[0].rsplit("[", 1)[0]
    return path if re.fullmatch(r"[A-Za-z_][\w.]*(?:\[[^\]]+\][\w.]*)*", path) else ""


def _remade_by_running_code(ctx: Ctx, f: Any) -> bool:
    """A plain tensor attribute left behind (``dec.pos_index``) that a method running now
    assigns itself (``self.pos_index = ...`` in ``forward``): moving or registering it is undone
    at the next call; the line that makes it is the fix (found by the culprit's own trace).
    So is a module split only by buffers its running methods rebind (BindsNET's input layer
    keeps each step's input as ``self.s``): the split is the failing call's own doing, and the
    data it was handed is the culprit."""
    if f.kind == "module_split":
        return bool(f.paths) and all(_assigned_by_running(ctx, p) for p in f.paths)
    if f.kind not in _TRAPS or not f.paths:
        return False
    return _assigned_by_running(
        ctx, f.paths[0] if f.kind != "trap_container" else f.paths[0].rsplit("[", 1)[0])


def _assigned_by_running(ctx: Ctx, path: str) -> bool:
    """Whether a method running now assigns the attribute at ``path`` of its own object."""
    from ._naming import self_assignments

    if "." not in path:
        return False
    owner_path, attr = path.rsplit(".", 1)
    owner = ctx.resolve(re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", owner_path))
    if owner is None:
        return False
    tracer = ctx.tracer(Want("", "", "", "", ""))
    for i, fr in enumerate(ctx.frames):
        if not ctx.is_user(fr.frame.f_code.co_filename):
            continue
        sc = tracer.scope(i)
        if sc is not None and sc.self_obj is owner and self_assignments(sc.code, attr, 1 << 30):
            return True
    return False


#: at most this many parts of a partly moved module get a culprit line each (the note lists
#: them all by count)
MAX_STRAY_PARTS = 6


def _split_strays(snap: Any, f: Any, named: set[str]) -> list[Operand]:
    """A culprit line for each submodule a partly moved module left behind, besides the one the
    op met: LoRA layers added after ``unet.to()`` are all strays, not only the first one run."""
    from ...inspect._tree import code_for, has_code

    root = f.objects[0] if f.objects else ""
    if root not in snap:
        return []
    rec = snap[root]
    stray = set(f.paths)
    owners = list(dict.fromkeys(t.owner for t in rec.tensors if t.path in stray))
    mods = {m.path: m for m in rec.modules}
    out: list[Operand] = []
    def each(owner: str) -> list[Operand]:
        return [Operand("left behind", Named(code_for(t.ref), code_for(t.ref), t.role, root),
                        t.device, t.dtype, t.shape) for t in rec.tensors
                if t.owner == owner and t.path in stray and not _covered(t.path, named)
                and has_code(t.ref)]

    for owner in owners:
        if owner == root or (_covered(owner, named) and not _inside(owner, named)):
            # NB: the module's own buffers (MFCC's dct_mat), or the rest of a part whose other
            # tensors the op met (NNI's third observer buffer): each by itself
            out += each(owner)
            continue
        m = mods.get(owner)
        if m is None or _covered(owner, named) or not has_code(m.ref):
            continue
        code = code_for(m.ref)
        what = f"{m.type_name} on {', '.join(m.devices)}"
        out.append(Operand("left behind", Named(code, code, "object", root), m.devices[0], "",
                           (), what))
        if len(out) >= MAX_STRAY_PARTS:
            break
    return out[:MAX_STRAY_PARTS]


def _line_names(ctx: Ctx) -> set[str]:
    if ctx.cell < 0:
        return set()
    fr = ctx.frames[ctx.cell]
    line = linecache.getline(fr.frame.f_code.co_filename, fr.lineno)
    return set(re.findall(r"[A-Za-z_]\w*", line))


def _preflight(ctx: Ctx, failure: Failure, expected: str, named: set[str],
               own_doing: set[str]) -> list[Blame]:
    from ..preflight import preflight

    if ctx.cell < 0:
        return []
    src = _source.load(ctx.frames[ctx.cell].frame.f_code.co_filename)
    if src is None:
        return []
    text = _source.python_text(src.lines)
    wanted = _DEVICE_ISSUES if failure.kind == "device" else _DTYPE_ISSUES
    out: list[Blame] = []
    for issue in preflight(text, ctx.ns, check_dtype=failure.kind != "device").issues:
        if issue.severity != "error" or issue.kind not in wanted or not issue.names or (
                issue.kind == "module_split" and set(issue.names) <= own_doing):
            continue
        fresh = [n for n in issue.names if not _covered(n, named)]
        if not fresh or not _consistent(failure, expected, issue.fix, None):
            continue
        named |= set(fresh)
        ops = [_object_operand(ctx, n, f"cell line {issue.line}") for n in fresh]
        out.append(Blame(ops[0], (issue.fix,), (), ()))
        out += [Blame(op) for op in ops[1:]]
    return out


def _object_operand(ctx: Ctx, code: str, where: str) -> Operand:
    """A culprit line for a namespace object named by ``code`` (a tensor, module, optimizer)."""
    import torch

    obj = ctx.resolve(code)
    named = Named(code, code, "tensor", _root(code))
    if is_tensor(obj):
        return describe_tensor(obj, where, named)
    what = type(obj).__name__ if obj is not None else "object"
    if issubclass(type(obj), torch.nn.Module):
        from ._decide import module_target

        what = f"{what} on {module_target(obj)}"
    elif issubclass(type(obj), torch.optim.Optimizer):
        what = f"{what} state"
    return Operand(where, named._replace(role="object"), "", "", (), what)
