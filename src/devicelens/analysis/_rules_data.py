"""Rules about what feeds the model: optimizer state and parameters, and loose tensors (data,
labels, masks) on another device or dtype than the model.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq

from ..inspect._tree import Ref, Step, code_for, has_code
from ..inspect.records import ObjectRecord, Snapshot, TensorRecord
from .findings import Action, Finding, Layout, Memo, _finding, is_float, q


def _optimizer(o: ObjectRecord, modules: list[ObjectRecord]) -> list[Finding]:
    ps = list(compress(o.tensors, map(eq, map(_ROLE, o.tensors), repeat("opt_param"))))
    if _uniform(o, ps):  # NB: one device and one float dtype in all: nothing can differ
        return _orphan(o, ps, modules)
    params = {t.ref[-1].key: t for t in ps}
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
    return out + _orphan(o, ps, modules)


_ROLE, _DEVICE, _DTYPE = attrgetter("role"), attrgetter("device"), attrgetter("dtype")
_OWNER = attrgetter("owner")


def _uniform(o: ObjectRecord, params: list[TensorRecord]) -> bool:
    """Whether the state (``o.devices``/``o.dtypes``: the 0-dim cpu counters aside) and the
    parameters share one device and one floating dtype. NB: C-speed scans, no loop per tensor."""
    devices = set(o.devices)
    devices.update(map(_DEVICE, params))
    dtypes = {d for d in (*o.dtypes, *set(map(_DTYPE, params))) if is_float(d)}
    return len(devices) <= 1 and len(dtypes) <= 1


def _orphan(o: ObjectRecord, params: list[TensorRecord],
            modules: list[ObjectRecord]) -> list[Finding]:
    if not params or not modules or any(map(_OWNER, params)):
        return []
    shapes = sorted(p.shape for p in params)
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

def _loose(snap: Snapshot, layout: Layout,
           memo: Memo | None = None) -> list[Finding]:
    """Loose tensors and containers off the model's device or dtype, in namespace order.

    NB: the compact rows of a big namespace are read as groups of (device, dtype, 0-dim): only
    the rows of a group that can be wrong become records.
    """
    device, dtype = layout.device, layout.dtype
    if not device and not dtype:
        return []
    found = [(p, o) for p, o in snap.composites() if o.kind in ("tensor", "container")]
    wrong = {key for key in snap.loose_layouts()
             if not (key[2] and key[0] == "cpu")
             and ((device and key[0] != device) or (dtype and is_float(key[1])
                                                    and key[1] != dtype))}
    if wrong:
        positions = snap.loose_positions(wrong)
        found = sorted(found + list(zip(positions, snap.records_at(positions), strict=True)))
    out: list[Finding] = []
    for _p, o in found:
        out += memo.get(o, "loose", layout, _loose_object) if memo is not None \
            else _loose_object(o, layout)
    return out


def _loose_object(o: ObjectRecord, layout: Layout) -> list[Finding]:
    device, dtype, model, wrapper = layout
    target = f"next({model}.parameters()).device" if model and not wrapper else q(device or "")
    out: list[Finding] = []
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
