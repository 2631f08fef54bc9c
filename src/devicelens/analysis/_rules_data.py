"""Rules about what feeds the model: optimizer state and parameters, and loose tensors (data,
labels, masks) on another device or dtype than the model.
"""

from __future__ import annotations

from typing import Any

from ..inspect._tree import Ref, Step, code_for, has_code
from ..inspect.records import ObjectRecord, Snapshot, TensorRecord
from .findings import Action, Finding, _finding, is_float, model_layout, q


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
        n = len(bad_dev)
        msg = (f"{n} state tensor{'s' * (n != 1)} of {o.name} {'are' if n != 1 else 'is'} on "
               f"{', '.join(sorted({t.device for t in bad_dev}))} while their parameters are on "
               f"{', '.join(pdevs)}: {o.name}.step() will fail.")
        out.append(_finding("optimizer_state", "error", f"{o.name} state left behind", msg, fix,
                            (t.path for t in bad_dev), [o.name],
                            sorted({t.device for t in bad_dev} | set(pdevs)),
                            action=Action("optimizer_state", (root,))))
    if bad_dt:
        n = len(bad_dt)
        msg = (f"{n} state tensor{'s' * (n != 1)} of {o.name} {'have' if n != 1 else 'has'} a "
               f"different dtype than their "
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

def _loose(snap: Snapshot) -> list[Finding]:
    device, dtype, model, wrapper = model_layout(snap.objects)
    out: list[Finding] = []
    target = f"next({model}.parameters()).device" if model and not wrapper else q(device or "")
    for o in snap.objects:
        if o.kind not in ("tensor", "container"):
            continue
        loose = [t for t in o.tensors if t.role == "tensor" and t.flavor != "opaque"
                 and not (t.shape == () and t.device == "cpu")]
        if device:
            wrong = [t for t in loose if t.device != device]
            if wrong:
                out.append(_loose_finding("loose_device", o, wrong, device, None, target,
                                          model or "the model"))
        if dtype:
            wrong_dt = [t for t in loose if is_float(t.dtype) and t.dtype != dtype]
            if wrong_dt:
                out.append(_loose_finding("loose_dtype", o, wrong_dt, None, dtype, "",
                                          model or "the model"))
    return out


_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()"}


def _loose_finding(kind: str, o: ObjectRecord, wrong: list[TensorRecord], device: str | None,
                   dtype: str | None, target: str, model: str) -> Finding:
    call = f"to({target})" if device else _CASTS.get(dtype or "", f"to(torch.{dtype})")
    lines = [f"{code_for(t.ref)} = {code_for(t.ref)}.{call}" for t in wrong if has_code(t.ref)]
    if o.frozen or len(lines) < len(wrong):
        lines = [f"{o.name} = torch.utils._pytree.tree_map(lambda t: t.{call} if "
                 f"torch.is_tensor(t) else t, {o.name})"]
    if device:
        found = sorted({t.device for t in wrong})
        msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} on {', '.join(found)} "
               f"but {model} is on {device}: using {'it' if len(wrong) == 1 else 'them'} with "
               f"{model} will fail.")
        return _finding(kind, "warning", f"{o.name} is not on {device}", msg, "\n".join(lines),
                        (t.path for t in wrong), [o.name], [*found, device],
                        action=Action("to_device", tuple(t.ref for t in wrong), device))
    found = sorted({t.dtype for t in wrong})
    msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} {', '.join(found)} but "
           f"{model} is {dtype}: matmuls with its weights raise \"must have the same dtype\".")
    return _finding(kind, "warning", f"{o.name} is {', '.join(found)}", msg, "\n".join(lines),
                    (t.path for t in wrong), [o.name], dtypes=[*found, dtype or ""],
                    action=Action("to_dtype", tuple(t.ref for t in wrong), dtype=dtype))


def _names(wrong: list[TensorRecord]) -> str:
    shown = ", ".join(t.path for t in wrong[:3])
    return shown + (f" and {len(wrong) - 3} more" if len(wrong) > 3 else "")
