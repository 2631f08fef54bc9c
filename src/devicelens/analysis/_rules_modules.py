"""Rules about one module: split across devices, mixed dtypes, traps ``Module.to()`` misses,
DataParallel placement, and a model built with empty weights (a note, never a fix).
"""

from __future__ import annotations

from operator import attrgetter

from ..inspect import _tree
from ..inspect._tree import Ref, code_for, del_code
from ..inspect.records import ObjectRecord, TensorRecord
from .findings import (
    Action,
    Finding,
    Severity,
    _counts,
    _finding,
    is_adapter,
    is_real_float,
    majority,
    module_tensors,
    q,
)


def _module_split(o: ObjectRecord) -> list[Finding]:
    own = module_tensors(o)
    devices = {t.device for t in own}
    if len(devices) < 2 or o.dispatch:
        return []
    if empty_weights(own):
        return [_empty_weights(o, own)]
    accel = {d for d in devices if d != "cpu"}
    if len(accel) >= 2:
        return _pipeline(o, own, devices)
    # NB: users move models *to* accelerators: half on cpu, half on cuda:0 wants cuda:0.
    # (``meta`` counts as one: nothing can be copied back from it.)
    target = accel.pop()
    strays = [t for t in own if t.device != target]
    return [_split_finding(o, strays, devices, target, "error")]


def empty_weights(own: list[TensorRecord]) -> bool:
    """Parameters all on meta, buffers with data: built under accelerate's
    ``init_empty_weights`` (or ``device="meta"``), waiting for its weights to be loaded.

    NB: its non-persistent buffers (rotary ``inv_freq``) are in no checkpoint: moving them to
    meta would destroy them for good.
    """
    params = [t for t in own if t.role == "parameter"]
    rest = [t for t in own if t.device != "meta"]
    return (bool(params) and all(t.device == "meta" for t in params) and bool(rest)
            and all(t.role == "buffer" for t in rest))


def _empty_weights(o: ObjectRecord, own: list[TensorRecord]) -> Finding:
    bufs = [t for t in own if t.device != "meta"]
    devs = sorted({t.device for t in bufs})
    msg = (f"{o.name} has its parameters on meta (no data yet) and its buffers "
           f"({', '.join(t.path for t in bufs[:3])}{'…' if len(bufs) > 3 else ''}) on "
           f"{', '.join(devs)}: the layout of a model built with empty weights "
           f"(accelerate's init_empty_weights). Load its weights before running it "
           f"(load_checkpoint_and_dispatch, or {o.name}.load_state_dict(state_dict, assign=True)); "
           f"do not move it to meta or call to_empty(), which would destroy those buffers.")
    return _finding("empty_weights", "info", f"{o.name} waits for its weights", msg, "",
                    (t.path for t in bufs), [o.name], ["meta", *devs])


def _split_finding(o: ObjectRecord, strays: list[TensorRecord],
                   devices: set[str], target: str, severity: Severity) -> Finding:
    stray_mods = list(dict.fromkeys(t.owner for t in strays))
    root = o.tensors[0].ref[:1]
    tail = ("" if severity == "error" else
            "; it looks like intentional model parallelism (no layer is itself split)")
    msg = (f"{o.name} is split across {', '.join(sorted(devices))}: "
           f"{len(strays)} of its tensors ({', '.join(stray_mods[:3])}"
           f"{'…' if len(stray_mods) > 3 else ''}) are not on {target}, so its forward pass "
           f"will fail{' unless each part gets inputs on its own device' if tail else ''}"
           f"{tail}.")
    title = (f"{o.name} is partly moved" if severity != "info" else
             f"{o.name} spans {', '.join(sorted(devices))} (model parallel?)")
    return _finding("module_split", severity, title, msg,
                    f"{code_for(root)}.to({q(target)})", (t.path for t in strays), [o.name],
                    sorted(devices),
                    action=Action("to_device", (root,), target) if severity != "info" else None)


def _pipeline(o: ObjectRecord, own: list[TensorRecord], devices: set[str]) -> list[Finding]:
    """A model over several accelerators: model parallelism, unless a layer is split or a part
    was left on the cpu (then that part, not the whole model, is what to move)."""
    if "cpu" not in devices:
        per_owner: dict[str, set[str]] = {}
        for t in own:
            per_owner.setdefault(t.owner, set()).add(t.device)
        leaf_split = any(len(devs) > 1 for devs in per_owner.values())
        target = majority(own) or "cpu"
        strays = [t for t in own if t.device != target]
        return [_split_finding(o, strays, devices, target,
                               "error" if leaf_split else "info")]
    by_target: dict[str, dict[str, list[TensorRecord]]] = {}
    for t in own:
        if t.device == "cpu":
            target = _neighbour_device(own, t.owner) or "cpu"
            by_target.setdefault(target, {}).setdefault(t.owner, []).append(t)
    out = []
    for target, owners in by_target.items():
        refs = tuple(ts[0].ref[:-1] for ts in owners.values())
        names = ", ".join(owners)
        msg = (f"{o.name} runs across {', '.join(sorted(devices - {'cpu'}))}, but {names} "
               f"{'is' if len(owners) == 1 else 'are'} still on the cpu, next to layers on "
               f"{target}: the forward pass will fail there.")
        fix = "\n".join(f"{code_for(r)}.to({q(target)})" for r in refs)
        out.append(_finding("module_split", "error", f"{names} left on the cpu", msg, fix,
                            (t.path for ts in owners.values() for t in ts), [o.name],
                            sorted(devices), action=Action("to_device", refs, target)))
    return out


def _neighbour_device(own: list[TensorRecord], owner: str) -> str | None:
    """The device of the closest enclosing module's other (non-cpu) tensors."""
    path = owner
    while "." in path:
        path = path.rsplit(".", 1)[0]
        near = [t for t in own if t.device != "cpu"
                and (t.owner == path or t.owner.startswith(path + "."))]
        if near:
            return majority(near)
    return None


def _module_dtypes(o: ObjectRecord) -> list[Finding]:
    """Real floating dtypes mixed in one module. NB: complex tensors are not judged (a complex
    ``freqs_cis`` beside float weights is how rotary embeddings work), nor 0-dim ones (they
    promote as numbers do), and the parameters decide the module's dtype (a big buffer of
    another dtype does not make them the strays)."""
    own = module_tensors(o)
    # NB: the distinct dtypes at C speed first: most modules have one
    # NB: hooks that place inputs say nothing of dtypes
    if o.dispatch not in ("", "hooks") or sum(map(is_real_float, set(map(_DTYPE, own)))) < 2:
        return []
    held = own
    own = [t for t in own if is_real_float(t.dtype)]
    dtypes = {t.dtype for t in own}
    target = (majority([t for t in own if t.role == "parameter" and not is_adapter(t)], "dtype")
              or majority(own, "dtype") or "float32")
    # NB: a 0-dim tensor takes part in type promotion as a number does (nflows' float64
    # ``_log_z`` beside float32 weights gives float32 results): no stray
    strays = [t for t in own if t.dtype != target and t.shape != ()]
    if not strays:
        return []
    norms = {m.path for m in o.modules if is_norm(m.type_name)}
    if target in _HALF and all(t.dtype == "float32" and (
            t.role == "buffer" or is_adapter(t) or t.owner in norms) for t in strays):
        return [_float32_kept(o, strays, target)]
    root = o.tensors[0].ref[:1]
    fix = _cast_fix(root, held, strays, target)
    msg = (f"{o.name} mixes floating dtypes {', '.join(sorted(dtypes))}: "
           f"{len(strays)} tensors are not {target}, and ops between them raise "
           f"\"expected scalar type\" errors.")
    if not fix:
        msg += (f" Cast them alone: .to() on their module would also cast its complex tensors "
                f"to {target}, dropping their imaginary parts.")
    return [_finding("module_mixed_dtype", "warning", f"{o.name} mixes dtypes", msg, fix,
                     (t.path for t in strays), [o.name], dtypes=sorted(dtypes),
                     action=Action("to_dtype", (root,), dtype=target))]


_HALF = frozenset({"float16", "bfloat16"})
#: normalisation layers a half-precision network keeps in float32 on purpose (apex's
#: ``network_to_half``, fp16 recipes: cuDNN takes half inputs with float32 statistics)
_NORMS = ("BatchNorm", "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "RMSNorm")


def is_norm(type_name: str) -> bool:
    """A normalisation layer's class: torch's own, and the models' own under their prefixes
    (``LlamaRMSNorm``, ``GemmaRMSNorm``, ``T5LayerNorm``, apex's ``FusedLayerNorm``)."""
    return any(n in type_name for n in _NORMS)


def _cast_fix(root: Ref, held: list[TensorRecord], strays: list[TensorRecord],
              target: str) -> str:
    """``model.to(torch.X)``; where the module holds a complex tensor, which that would cast
    to a real dtype too (dropping its imaginary part), the submodules holding the strays
    instead, or no code where one of them holds a complex tensor itself (the action, which
    casts real floating tensors only, still applies)."""
    if not any(t.dtype.startswith("complex") for t in held):
        return f"{code_for(root)}.to(torch.{target})"
    owners = {_owner_ref(t): None for t in strays}
    if any(t.dtype.startswith("complex") and _owner_ref(t) in owners for t in held):
        return ""
    return "\n".join(f"{code_for(r)}.to(torch.{target})" for r in owners)


def _float32_kept(o: ObjectRecord, strays: list[TensorRecord], target: str) -> Finding:
    """float32 buffers and PEFT adapters beside half-precision parameters: a note. NB: both
    usually deliberate: a rotary ``inv_freq`` or running statistics (``from_pretrained
    (torch_dtype=...)`` leaves buffers in float32, and DeepSpeed and NeMo keep them so), LoRA
    weights that PEFT upcasts (its layers cast their inputs). Casting them loses precision."""
    n = len(strays)
    adapters = [t for t in strays if is_adapter(t)]
    shown = ", ".join(t.path for t in strays[:3]) + (f" and {n - 3} more" if n > 3 else "")
    why = ([] if len(adapters) == n else
           ["rotary frequencies such as inv_freq, normalisation statistics and normalisation "
            "layers are kept in float32 for precision"])
    if adapters:
        why.append("PEFT keeps LoRA adapters in float32 beside a half-precision base "
                   "(autocast_adapter_dtype) and casts their inputs")
    msg = (f"{o.name} keeps {shown} in float32 beside its {target} parameters. That is usually "
           f"deliberate ({'; '.join(why)}), so devicelens does not cast "
           f"{'it' if n == 1 else 'them'}: {o.name}.to(torch.{target}) would.")
    if len(adapters) < n:
        msg += (f" If your own forward adds a float32 buffer to activations, they become "
                f"float32 and the next {target} layer raises \"expected scalar type\": then "
                f"cast that buffer alone.")
    title = (f"{o.name} keeps {n} {'tensor' if n == 1 else 'tensors'} in float32" if adapters
             else f"{o.name} keeps {n} buffer{'' if n == 1 else 's'} in float32")
    return _finding("module_float32_kept", "info", title, msg, "",
                    (t.path for t in strays), [o.name], dtypes=[target, "float32"])


def _module_device_of(o: ObjectRecord, owner: str) -> str | None:
    """Device of the module at path ``owner`` (its own params/buffers), else of the root."""
    own = module_tensors(o)
    return majority(t for t in own if t.owner == owner) or majority(own)


def _placed(o: ObjectRecord, owner: str) -> bool:
    """Whether the module at path ``owner`` or a module below it holds a parameter or a
    buffer: something that says where it runs."""
    below = owner + "."
    return any(t.owner == owner or t.owner.startswith(below) for t in module_tensors(o))


def _owner_ref(t: TensorRecord) -> Ref:
    return t.ref[:-1]


def _traps(o: ObjectRecord) -> list[Finding]:
    out: list[Finding] = []
    # NB: a C-speed scan first: most modules hold no plain tensor attribute
    for t in o.tensors if "attribute" in map(_ROLE, o.tensors) else ():
        if t.role != "attribute" or not _counts(t) or (t.shape == () and t.device == "cpu"):
            continue
        dev = _module_device_of(o, t.owner)
        if dev is None:
            continue
        owner_code = code_for(_owner_ref(t))
        name = str(t.ref[-1].key)
        hook = _norm_hook(o, t, name)
        if hook:
            if t.device != dev:
                out.append(_stale_norm_weight(o, t, hook, dev))
            continue
        fix = (f"_t = {code_for(t.ref)}\n{del_code(code_for(t.ref))}\n"
               f"{owner_code}.register_buffer({q(name)}, _t.to({q(dev)}), persistent=False)")
        if t.device != dev and not _placed(o, t.owner):
            # NB: a module with no parameter or buffer of its own (docTR's PreProcessor, a
            # transform's statistics) has no device: its inputs decide, and the cpu data it is
            # often given meets its cpu attributes as they should. A note, not an error; when a
            # cell fails on it, the failure proves it a trap (guard/diagnosis/_complete.py)
            msg = (f"{t.path} is a plain tensor attribute on {t.device} in {t.owner}, which "
                   f"holds no parameter or buffer (its model is on {dev}): it works on inputs "
                   f"on {t.device}; given inputs on {dev} it fails, as Module.to() never "
                   f"moves it. Registered as a buffer, it would move with the model.")
            out.append(_finding("trap_unplaced", "info", f"{t.path} stays on {t.device}", msg,
                                fix, [t.path], [o.name], [t.device, dev]))
        elif t.device != dev:
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
    return out + _trapped_modules(o) + _trapped_tensors(o)


def _trapped_tensors(o: ObjectRecord) -> list[Finding]:
    """Tensors a module keeps in a plain list, tuple or dict attribute (``self.anchors =
    [...]``), outside any module held that way: ``Module.to()`` never moves them. On another
    device than their module: an error, and the container made again on the module's device;
    on the same one: a note. NB: one level only (``self.x[i]``, ``self.x[k]``)."""
    groups: dict[Ref, list[TensorRecord]] = {}
    inside = tuple(m.path + "." for m in o.modules if m.trapped)
    for t in o.tensors if "trapped" in map(_ROLE, o.tensors) else ():
        ref = t.ref
        if (t.role != "trapped" or not _counts(t) or len(ref) < 3 or ref[-1].kind != "item"
                or ref[-2].kind != "attr" or (inside and t.path.startswith(inside))):
            continue
        groups.setdefault(ref[:-1], []).append(t)
    out: list[Finding] = []
    for box, ts in groups.items():
        dev = _module_device_of(o, ts[0].owner)
        if dev is None:
            continue
        code, where = code_for(box), _tree.display_for(box)
        keyed = isinstance(ts[0].ref[-1].key, str)
        kind = "dict" if keyed else "list"
        stray = [t for t in ts if t.device != dev]
        if not stray:
            out.append(_finding(
                "trap_latent", "info", f"{where} is not moved by {ts[0].owner}.to()",
                f"{where} holds tensors in a plain {kind}: the next {ts[0].owner}.to(...) "
                f"will leave them behind (register each as a buffer, or use "
                f"torch.nn.ParameterList for parameters).", "", [t.path for t in ts],
                [o.name], [dev]))
            continue
        moved = (f'{{k: v.to({q(dev)}) if torch.is_tensor(v) else v for k, v in {code}.items()}}'
                 if keyed else
                 f'type({code})(t.to({q(dev)}) if torch.is_tensor(t) else t for t in {code})')
        devs = sorted({t.device for t in stray})
        out.append(_finding(
            "trap_container", "error", f"{where} was left on {', '.join(devs)}",
            f"{where} holds tensors in a plain {kind} on {', '.join(devs)} while {ts[0].owner} "
            f"is on {dev}: Module.to() never moves them. Moving them now fixes this run; "
            f"registering each as a buffer makes the next .to() move them too.",
            f"{code} = {moved}", [t.path for t in stray], [o.name], [*devs, dev],
            action=Action("to_device", tuple(t.ref for t in stray), dev)))
    return out


def _norm_hook(o: ObjectRecord, t: TensorRecord, name: str) -> str:
    """Which of ``torch.nn.utils.weight_norm``/``spectral_norm`` makes the attribute ``t``
    (named ``name``) from its module's parameters (``name_g`` and ``name_v``, ``name_orig``)
    before every forward, or "". NB: a plain attribute by their design, not a trap: made a
    buffer, it would enter the state_dict, and checkpoints would no longer load."""
    keys = {p.ref[-1].key for p in o.tensors if p.role == "parameter" and p.owner == t.owner}
    if f"{name}_orig" in keys:
        return "spectral_norm"
    return "weight_norm" if f"{name}_g" in keys and f"{name}_v" in keys else ""


def _stale_norm_weight(o: ObjectRecord, t: TensorRecord, hook: str, dev: str) -> Finding:
    """The weight ``hook`` made before the module moved: a note. NB: calling the module makes it
    again where the module is; only code that reads it without calling the module (pytorch
    #48898) meets the stale one."""
    msg = (f"{t.path} is on {t.device} while {t.owner} is on {dev}: {hook} makes it again from "
           f"{t.owner}'s parameters before every forward, so calling {t.owner} works. Code that "
           f"reads {t.path} without calling the module gets the stale one; "
           f"torch.nn.utils.parametrizations.{hook} computes it on every read instead.")
    return _finding("norm_weight_stale", "info", f"{t.path} is made again by {hook}", msg, "",
                    [t.path], [o.name], [t.device, dev])


def _trapped_modules(o: ObjectRecord) -> list[Finding]:
    out: list[Finding] = []
    heads = [m for m in o.modules if m.trapped and not _is_inside_trapped(m, o)]
    if not heads:
        return out
    root_dev = majority(module_tensors(o))
    for m in heads:
        holder_code = code_for(m.ref[:-1])
        as_dict = m.ref[-1].kind == "item" and isinstance(m.ref[-1].key, str)
        plain, wrapper = ("dict", "ModuleDict") if as_dict else ("list", "ModuleList")
        keyed = _keyed_fix(m.ref)
        plain = "dict" if keyed else plain
        fix = keyed or f"{holder_code} = torch.nn.{wrapper}({holder_code})" + _same_mode(m.ref)
        # NB: held as an attribute of a plain object (SpeechBrain's ``hparams``, a
        # SimpleNamespace): no container to register, the module itself is moved
        by_object = m.ref[-1].kind == "attr"
        if by_object:
            plain, fix = "object's attribute", ""
        tensors = [t for t in o.tensors if t.role == "trapped" and t.path.startswith(m.path + ".")]
        stray = root_dev is not None and any(t.device != root_dev for t in tensors if _counts(t))
        if stray and root_dev is not None:
            devs = ", ".join(m.devices)
            msg = (f"{m.path} ({m.type_name}) is held in a plain {plain} and sits on {devs} "
                   f"while {o.name} is on {root_dev}: Module.to(), .parameters() and "
                   f"state_dict() all miss it.")
            move = (f"{code_for(m.ref)}.to({q(root_dev)})" if by_object
                    else f"{fix}\n{o.name}.to({q(root_dev)})")
            out.append(_finding("trap_module", "error", f"{m.path} was left on {devs}", msg,
                                move, [m.path], [o.name],
                                [*m.devices, root_dev],
                                action=Action("to_device", (m.ref,), root_dev)))
        elif root_dev is not None:
            msg = (f"{m.path} ({m.type_name}) is held in a plain {plain}: "
                   f"{o.name}.to(), .parameters() and state_dict() all miss it.")
            out.append(_finding("trap_latent", "info", f"{m.path} is not a registered submodule",
                                msg, fix, [m.path], [o.name], m.devices))
    return out


def _keyed_fix(ref: Ref) -> str:
    """The fix for modules a module's plain dict attribute holds by keys a ``ModuleDict`` cannot
    take (RLlib's ``self.flatten[1]``, an int): the dict keeps its keys and each module is
    registered beside it (``add_module``, RLlib's own fix), in the holder's train/eval mode;
    '' for any other holder."""
    if ref[-1].kind != "item" or ref[-1].hint != "key" or len(ref) < 3 \
            or ref[-2].kind != "attr":
        return ""
    holder, owner, attr = code_for(ref[:-1]), code_for(ref[:-2]), ref[-2].key
    return (f"for _k, _m in {holder}.items():\n"
            f"    {owner}.add_module(f\"{attr}_{{_k}}\", _m.train({owner}.training))")


def _same_mode(ref: Ref) -> str:
    """The line that puts modules just registered from a plain container in the train/eval
    mode of the module holding them: ``model.eval()`` never reached them either, so after an
    ``eval()`` their BatchNorm and Dropout still train (and a rehearsal on the simulated device
    meets BatchNorm's training branch). NB: only where the container is an attribute of a
    module; read when the fix runs, not from the snapshot."""
    if len(ref) < 3 or ref[-2].kind != "attr":
        return ""
    holder, owner = code_for(ref[:-1]), code_for(ref[:-2])
    return f"\n{holder}.train({owner}.training)"


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


_ROLE, _DTYPE = attrgetter("role"), attrgetter("dtype")
