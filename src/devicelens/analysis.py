"""Snapshot -> findings: what will break, which objects, why, and the fix as code in user names.

Every finding also carries an :class:`Action`, a structured description of the same fix that the
move engine can apply (never code: the kernel never executes strings). Intentional layouts
(accelerate dispatch, DTensor, the optimizer ``step`` counter, 0-dim CPU tensors, integer
counters) are never flagged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ._tree import Ref, Step, code_for, has_code
from .snapshot import ObjectRecord, Snapshot, TensorRecord

Severity = Literal["error", "warning", "info"]
MAX_PATHS = 12


@dataclass(frozen=True)
class Action:
    """A fix the move engine can apply: move or cast the objects at ``refs``.

    ``op``: ``to_device`` (modules in place, tensors rebound), ``to_dtype`` (cast the culprits
    only), ``optimizer_state`` (each state tensor to its own parameter's device/dtype).
    """

    op: Literal["to_device", "to_dtype", "optimizer_state"]
    refs: tuple[Ref, ...]
    device: str | None = None
    dtype: str | None = None


@dataclass(frozen=True)
class Finding:
    id: str
    kind: str
    severity: Severity
    title: str
    message: str
    fix: str
    paths: tuple[str, ...]
    objects: tuple[str, ...]
    devices: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    action: Action | None = None

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        from .render import mimebundle

        return mimebundle(None, [self])


DEVICE_KINDS = ("module_split", "trap_attribute", "trap_module", "optimizer_state",
                "dataparallel_device", "loose_device")
DTYPE_KINDS = ("optimizer_state_dtype", "loose_dtype", "module_mixed_dtype")


def _finding(kind: str, severity: Severity, title: str, message: str, fix: str,
             paths: Iterable[str], objects: Iterable[str], devices: Iterable[str] = (),
             dtypes: Iterable[str] = (), action: Action | None = None) -> Finding:
    paths = tuple(dict.fromkeys(paths))
    digest = hashlib.sha1("\0".join((kind, *paths)).encode()).hexdigest()[:12]
    return Finding(f"{kind}-{digest}", kind, severity, title, message, fix,
                   _cap(paths), tuple(dict.fromkeys(objects)), tuple(dict.fromkeys(devices)),
                   tuple(dict.fromkeys(dtypes)), action)


def _cap(paths: tuple[str, ...]) -> tuple[str, ...]:
    if len(paths) <= MAX_PATHS:
        return paths
    return (*paths[:MAX_PATHS], f"… and {len(paths) - MAX_PATHS} more")


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def _counts(t: TensorRecord) -> bool:
    """Tensors that decide where a module "is". NB: 0-dim integer counters never do."""
    return not (t.shape == () and not is_float(t.dtype)) and t.role != "grad"


def majority(tensors: Iterable[TensorRecord], attr: str = "device") -> str | None:
    """The device (or dtype) holding most bytes; ties go to the first seen."""
    weight: dict[str, int] = {}
    for t in tensors:
        key = getattr(t, attr)
        weight[key] = weight.get(key, 0) + t.nbytes + 1
    return max(weight, key=weight.__getitem__) if weight else None


def module_tensors(o: ObjectRecord) -> list[TensorRecord]:
    return [t for t in o.tensors if t.role in ("parameter", "buffer") and _counts(t)]


def q(s: str) -> str:
    return f'"{s}"'


# --- module findings ------------------------------------------------------------------------

def _module_split(o: ObjectRecord) -> list[Finding]:
    own = module_tensors(o)
    devices = {t.device for t in own}
    if len(devices) < 2 or o.dispatch:
        return []
    target = _split_target(own)
    strays = [t for t in own if t.device != target]
    stray_mods = list(dict.fromkeys(t.owner for t in strays))
    leaf_split = any(len({t.device for t in own if t.owner == m}) > 1 for m in stray_mods)
    severity: Severity = "error" if leaf_split or len(stray_mods) == 1 else "warning"
    root = code_for(o.tensors[0].ref[:1])
    msg = (f"{o.name} is split across {', '.join(sorted(devices))}: "
           f"{len(strays)} of its tensors ({', '.join(stray_mods[:3])}"
           f"{'…' if len(stray_mods) > 3 else ''}) are not on {target}, so its forward pass "
           f"will fail" + ("" if severity == "error" else
                           " unless this split is intentional model parallelism") + ".")
    return [_finding("module_split", severity, f"{o.name} is partly moved", msg,
                     f"{root}.to({q(target)})", (t.path for t in strays), [o.name],
                     sorted(devices), action=Action("to_device", (o.tensors[0].ref[:1],), target))]


def _split_target(own: list[TensorRecord]) -> str:
    """Where a partly moved module was headed: the one non-cpu device it touches, else most bytes.

    NB: users move models *to* accelerators; a model half on cpu, half on cuda:0 wants cuda:0.
    (``meta`` counts as one: nothing can be copied back from it.)
    """
    accel = {t.device for t in own if t.device != "cpu"}
    if len(accel) == 1:
        return accel.pop()
    return majority(own) or "cpu"


def _module_dtypes(o: ObjectRecord) -> list[Finding]:
    own = [t for t in module_tensors(o) if is_float(t.dtype)]
    dtypes = {t.dtype for t in own}
    if len(dtypes) < 2 or o.dispatch:
        return []
    target = majority(own, "dtype") or "float32"
    strays = [t for t in own if t.dtype != target]
    root = o.tensors[0].ref[:1]
    msg = (f"{o.name} mixes floating dtypes {', '.join(sorted(dtypes))}: "
           f"{len(strays)} tensors are not {target}, and ops between them raise "
           f"\"expected scalar type\" errors.")
    return [_finding("module_mixed_dtype", "warning", f"{o.name} mixes dtypes", msg,
                     f"{code_for(root)}.to(torch.{target})", (t.path for t in strays), [o.name],
                     dtypes=sorted(dtypes), action=Action("to_dtype", (root,), dtype=target))]


def _module_device_of(o: ObjectRecord, owner: str) -> str | None:
    """Device of the module at path ``owner`` (its own params/buffers), else of the root."""
    own = module_tensors(o)
    return majority(t for t in own if t.owner == owner) or majority(own)


def _owner_ref(t: TensorRecord) -> Ref:
    return t.ref[:-1]


def _traps(o: ObjectRecord) -> list[Finding]:
    out: list[Finding] = []
    for t in o.tensors:
        if t.role != "attribute" or not _counts(t) or (t.shape == () and t.device == "cpu"):
            continue
        dev = _module_device_of(o, t.owner)
        if dev is None:
            continue
        owner_code = code_for(_owner_ref(t))
        name = str(t.ref[-1].key)
        fix = (f"_t = {code_for(t.ref)}\ndel {code_for(t.ref)}\n"
               f"{owner_code}.register_buffer({q(name)}, _t.to({q(dev)}))")
        if t.device != dev:
            msg = (f"{t.path} is a plain tensor attribute on {t.device} while {t.owner} is on "
                   f"{dev}: Module.to() never moves it; register it as a buffer.")
            out.append(_finding("trap_attribute", "error", f"{t.path} was left on {t.device}",
                                msg, fix, [t.path], [o.name], [t.device, dev],
                                action=Action("to_device", (t.ref,), dev)))
        else:
            msg = (f"{t.path} is a plain tensor attribute: it is on {dev} now, but the next "
                   f"{t.owner}.to(...) will leave it behind; register it as a buffer.")
            out.append(_finding("trap_latent", "info", f"{t.path} is not a buffer", msg, fix,
                                [t.path], [o.name], [t.device]))
    return out + _trapped_modules(o)


def _trapped_modules(o: ObjectRecord) -> list[Finding]:
    out: list[Finding] = []
    root_dev = majority(module_tensors(o))
    heads = [m for m in o.modules if m.trapped and not _is_inside_trapped(m, o)]
    for m in heads:
        holder_code = code_for(m.ref[:-1])
        as_dict = m.ref[-1].kind == "item" and isinstance(m.ref[-1].key, str)
        plain, wrapper = ("dict", "ModuleDict") if as_dict else ("list", "ModuleList")
        fix = f"{holder_code} = torch.nn.{wrapper}({holder_code})"
        tensors = [t for t in o.tensors if t.role == "trapped" and t.path.startswith(m.path + ".")]
        stray = root_dev is not None and any(t.device != root_dev for t in tensors if _counts(t))
        if stray and root_dev is not None:
            devs = ", ".join(m.devices)
            msg = (f"{m.path} ({m.type_name}) is held in a plain {plain} and sits on {devs} "
                   f"while {o.name} is on {root_dev}: Module.to(), .parameters() and "
                   f"state_dict() all miss it.")
            out.append(_finding("trap_module", "error", f"{m.path} was left on {devs}", msg,
                                f"{fix}\n{o.name}.to({q(root_dev)})", [m.path], [o.name],
                                [*m.devices, root_dev],
                                action=Action("to_device", (m.ref,), root_dev)))
        elif root_dev is not None:
            msg = (f"{m.path} ({m.type_name}) is held in a plain {plain}: "
                   f"{o.name}.to(), .parameters() and state_dict() all miss it.")
            out.append(_finding("trap_latent", "info", f"{m.path} is not a registered submodule",
                                msg, fix, [m.path], [o.name], m.devices))
    return out


def _is_inside_trapped(m: object, o: ObjectRecord) -> bool:
    path = getattr(m, "path", "")
    return any(other.trapped and path.startswith(other.path + ".") for other in o.modules
               if other is not m)


def _dataparallel(o: ObjectRecord) -> list[Finding]:
    if o.wrapper != "DataParallel" or not o.device_ids:
        return []
    want = f"cuda:{o.device_ids[0]}"
    own = module_tensors(o)
    wrong = [t for t in own if t.device != want]
    if not wrong:
        return []
    root = o.tensors[0].ref[:1]
    msg = (f"{o.name} is a DataParallel over device_ids={list(o.device_ids)}, whose module must "
           f"live on device_ids[0] = {want}, but {len(wrong)} of its tensors are on "
           f"{', '.join(sorted({t.device for t in wrong}))}.")
    return [_finding("dataparallel_device", "error", f"{o.name}.module is not on {want}", msg,
                     f"{code_for(root)}.module.to({q(want)})", (t.path for t in wrong), [o.name],
                     sorted({t.device for t in wrong} | {want}),
                     action=Action("to_device", (root,), want))]


# --- optimizers -----------------------------------------------------------------------------

def _optimizer(o: ObjectRecord, snap: Snapshot) -> list[Finding]:
    params = {t.ref[-1].key: t for t in o.tensors if t.role == "opt_param"}
    bad_dev: list[TensorRecord] = []
    bad_dt: list[TensorRecord] = []
    for t in o.tensors:
        if t.role != "state" or t.ref[-1].key == "step" or (t.shape == () and t.device == "cpu"):
            continue
        p = params.get(t.ref[-2].key)
        if p is None:
            continue
        if t.device != p.device:
            bad_dev.append(t)
        elif is_float(t.dtype) and is_float(p.dtype) and t.dtype != p.dtype:
            bad_dt.append(t)
    out: list[Finding] = []
    root: Ref = (Step("name", o.name),)
    fix = (f"for _p, _s in {o.name}.state.items():\n    for _k, _v in _s.items():\n"
           f"        if torch.is_tensor(_v) and _k != \"step\":\n"
           f"            _s[_k] = _v.to(device=_p.device, dtype=_p.dtype if _v.is_floating_point()"
           f" else _v.dtype)")
    if bad_dev:
        pdevs = sorted({params[t.ref[-2].key].device for t in bad_dev})
        msg = (f"{len(bad_dev)} state tensors of {o.name} are on "
               f"{', '.join(sorted({t.device for t in bad_dev}))} while their parameters are on "
               f"{', '.join(pdevs)}: {o.name}.step() will fail.")
        out.append(_finding("optimizer_state", "error", f"{o.name} state left behind", msg, fix,
                            (t.path for t in bad_dev), [o.name],
                            sorted({t.device for t in bad_dev} | set(pdevs)),
                            action=Action("optimizer_state", (root,))))
    if bad_dt:
        msg = (f"{len(bad_dt)} state tensors of {o.name} have a different dtype than their "
               f"parameters: {o.name}.step() will fail or lose precision.")
        out.append(_finding("optimizer_state_dtype", "warning", f"{o.name} state dtype differs",
                            msg, fix, (t.path for t in bad_dt), [o.name],
                            dtypes=sorted({t.dtype for t in bad_dt}),
                            action=Action("optimizer_state", (root,))))
    return out + _orphan(o, params, snap)


def _orphan(o: ObjectRecord, params: dict[Any, TensorRecord], snap: Snapshot) -> list[Finding]:
    modules = [m for m in snap.objects if m.kind == "module"]
    if not params or not modules or any(p.owner for p in params.values()):
        return []
    shapes = sorted(p.shape for p in params.values())
    match = [m.name for m in modules
             if sorted(t.shape for t in m.tensors if t.role == "parameter") == shapes]
    model = match[0] if match else modules[0].name
    msg = (f"None of the {len(params)} parameters {o.name} updates belongs to a module in the "
           f"namespace: {model} was probably re-created after {o.name}, so {o.name}.step() "
           f"trains a model you no longer use.")
    fix = f"{o.name} = type({o.name})({model}.parameters(), **{o.name}.defaults)"
    return [_finding("optimizer_orphan", "error", f"{o.name} updates stale parameters", msg, fix,
                     [o.name], [o.name, model])]


# --- loose tensors --------------------------------------------------------------------------

def _model_layout(snap: Snapshot) -> tuple[str | None, str | None, str | None]:
    """(device, dtype, name) when every module in the namespace agrees on one; else Nones."""
    devices: set[str] = set()
    dtypes: set[str] = set()
    names: list[str] = []
    for o in snap.objects:
        own = module_tensors(o) if o.kind == "module" else []
        if own:
            names.append(o.name)
            devices |= {t.device for t in own}
            dtypes |= {t.dtype for t in own if is_float(t.dtype)}
    name = names[0] if len(names) == 1 else None
    return (next(iter(devices)) if len(devices) == 1 else None,
            next(iter(dtypes)) if len(dtypes) == 1 else None, name)


def _loose(snap: Snapshot) -> list[Finding]:
    device, dtype, model = _model_layout(snap)
    out: list[Finding] = []
    target = f"next({model}.parameters()).device" if model else (q(device) if device else "")
    for o in snap.objects:
        if o.kind not in ("tensor", "container"):
            continue
        loose = [t for t in o.tensors if t.role == "tensor" and t.flavor != "opaque"
                 and not (t.shape == () and t.device == "cpu")]
        if device:
            wrong = [t for t in loose if t.device != device]
            if wrong:
                out.append(_loose_finding("loose_device", o, wrong, device, None, target))
        if dtype:
            wrong_dt = [t for t in loose if is_float(t.dtype) and t.dtype != dtype]
            if wrong_dt:
                out.append(_loose_finding("loose_dtype", o, wrong_dt, None, dtype, ""))
    return out


_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()"}


def _loose_finding(kind: str, o: ObjectRecord, wrong: list[TensorRecord], device: str | None,
                   dtype: str | None, target: str) -> Finding:
    call = f"to({target})" if device else _CASTS.get(dtype or "", f"to(torch.{dtype})")
    lines = [f"{code_for(t.ref)} = {code_for(t.ref)}.{call}" for t in wrong if has_code(t.ref)]
    if o.frozen or len(lines) < len(wrong):
        lines = [f"{o.name} = torch.utils._pytree.tree_map(lambda t: t.{call} if "
                 f"torch.is_tensor(t) else t, {o.name})"]
    if device:
        found = sorted({t.device for t in wrong})
        msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} on {', '.join(found)} "
               f"but the model is on {device}: passing "
               f"{'it' if len(wrong) == 1 else 'them'} to it will fail.")
        return _finding(kind, "warning", f"{o.name} is not on {device}", msg, "\n".join(lines),
                        (t.path for t in wrong), [o.name], [*found, device],
                        action=Action("to_device", tuple(t.ref for t in wrong), device))
    found = sorted({t.dtype for t in wrong})
    msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} {', '.join(found)} but the "
           f"model is {dtype}: matmuls with its weights raise \"must have the same dtype\".")
    return _finding(kind, "warning", f"{o.name} is {', '.join(found)}", msg, "\n".join(lines),
                    (t.path for t in wrong), [o.name], dtypes=[*found, dtype or ""],
                    action=Action("to_dtype", tuple(t.ref for t in wrong), dtype=dtype))


def _names(wrong: list[TensorRecord]) -> str:
    shown = ", ".join(t.path for t in wrong[:3])
    return shown + (f" and {len(wrong) - 3} more" if len(wrong) > 3 else "")


# --- entry ----------------------------------------------------------------------------------

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def diagnose(snap: Snapshot) -> list[Finding]:
    """All findings for ``snap``, errors first. Pure: reads the snapshot, touches nothing else."""
    out: list[Finding] = []
    for o in snap.objects:
        if o.kind == "module":
            out += _dataparallel(o) or _module_split(o)
            out += _module_dtypes(o)
            out += _traps(o)
        elif o.kind == "optimizer":
            out += _optimizer(o, snap)
    out += _loose(snap)
    return sorted(out, key=lambda f: _SEVERITY_ORDER[f.severity])
