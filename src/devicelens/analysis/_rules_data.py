"""Rules about loose tensors (data, labels, masks): on another device or dtype than the model
they are used with.

Which model that is comes from the user's cells (:mod:`._usage`); without that, only a namespace
whose models all agree is judged, never a tensor against an arbitrary one of several models.
"""

from __future__ import annotations

import re
from operator import itemgetter

from ..inspect._tree import Step, code_for, has_code
from ..inspect.records import ObjectRecord, Snapshot, TensorRecord
from ._usage import Usage
from .findings import Action, Finding, Memo, Model, ModelIndex, _finding, is_real_float, q


def _loose(snap: Snapshot, idx: ModelIndex, usage: Usage,
           memo: Memo | None = None) -> list[Finding]:
    """NB: with the user's cells to read, a tensor no cell uses with a model is only a note:
    how it will be used (under autocast? as CPU lengths?) is not known yet."""
    out: list[Finding] = []
    ctx = (idx, usage)
    for _p, o in _candidates(snap, idx, usage):
        if memo is None:
            out += _loose_object(o, ctx)
        elif o.kind == "tensor":  # NB: a compact row's record is new at every read
            out += memo.get_equal(o, "loose", ctx, _loose_object)
        else:
            out += memo.get(o, "loose", ctx, _loose_object)
    return out


def _candidates(snap: Snapshot, idx: ModelIndex, usage: Usage,
                ) -> list[tuple[int, ObjectRecord]]:
    """(position, record) of every tensor and container that may have a finding, in order.

    NB: a compact row no cell mentions is judged against every model: whether it has a finding
    depends only on its (device, dtype, 0-dim), so the rows are read as such groups (C speed)
    and only the rows of a wrong group, or of a name the cells mention, become records.
    """
    found = [(p, o) for p, o in snap.composites() if o.kind in ("tensor", "container")]
    dev_ms, dev_wants = _wants(idx, idx.ms, "device")
    dt_ms, dt_wants = _wants(idx, idx.ms, "dtype")
    dev_on = bool(dev_ms) and None not in dev_wants
    dt_on = bool(dt_ms) and None not in dt_wants
    layouts = snap.loose_layouts() if dev_on or dt_on else ()
    wrong = {k for k in layouts if not (k[2] and k[0] == "cpu")
             and ((dev_on and k[0] not in dev_wants)
                  or (dt_on and is_real_float(k[1]) and k[1] not in dt_wants))}
    named = usage.mentioned()
    named.update(usage.cpu_paths)
    positions = sorted(set(snap.loose_positions(wrong) if wrong else ())
                       | set(snap.loose_named(named) if named else ()))
    if positions:
        found += zip(positions, snap.records_at(positions), strict=True)
        found.sort(key=_POSITION)
    return found


_POSITION = itemgetter(0)


def _wants(idx: ModelIndex, ms: list[Model], attr: str,
           ) -> tuple[list[Model], frozenset[str | None]]:
    """The models a tensor is judged against for ``attr``, and their ``attr`` values.
    NB: a DataParallel scatters its inputs to its devices itself: they may be anywhere.
    Cached for all the models (the common case: no cell names one), the index's own list."""
    key = f"wants-{attr}"
    whole = ms is idx.ms
    if whole and key in idx.cache:
        return idx.cache[key]  # type: ignore[no-any-return]
    if attr == "device":
        ms = [m for m in ms if m.wrapper != "DataParallel"]
    got = (ms, frozenset(getattr(m, attr) for m in ms))
    if whole:
        idx.cache[key] = got
    return got


def _loose_object(o: ObjectRecord, ctx: tuple[ModelIndex, Usage]) -> list[Finding]:
    idx, usage = ctx
    loose = [t for t in o.tensors if t.role == "tensor" and t.flavor != "opaque"
             and not (t.shape == () and t.device == "cpu") and t.ref[-1] != _BATCH_SIZES
             and not _state_entry(t.ref[-1])]
    cpu = [t for t in loose if t.path in usage.cpu_paths]
    loose = [t for t in loose if t.path not in usage.cpu_paths]
    out = _cpu_required(o, [t for t in cpu if t.device != "cpu"])
    if not loose:
        return out
    used = idx.named(usage.models_of(o.name, idx.names))
    ms = used or idx.ms
    # NB: a name the cell moves to a device at each use (``net(x.to(device))``) fails
    # nothing where it is stored; its dtype still reaches the model
    found = [] if used and usage.moved_at_each_use(o.name) else _judge(
        o, loose, idx, ms, bool(used), "device")
    if not usage.amp(o.name):  # NB: autocast casts the inputs of the ops it covers
        # NB: complex ones are not judged: a complex ``freqs_cis`` beside a float32 model is
        # how rotary embeddings work, and casting it would drop its imaginary part
        found += _judge(o, [t for t in loose if is_real_float(t.dtype)], idx, ms, bool(used),
                        "dtype")
    if usage.history and not used:
        found = [_not_yet(f) for f in found]
    elif used and usage.handed_only(o.name):
        found = [_not_yet(f, _HANDED) for f in found]
    elif used and not any(usage.tiers(o.name)):
        # NB: only made by the model (``out = model(x)``, a ``.cpu()`` sanity check, a bf16
        # output under autocast): an output is not an input until a cell passes it back
        found = [_not_yet(f, _OUTPUT) for f in found]
    return out + found


#: a PackedSequence's ``batch_sizes``: always on the CPU, by design (``PackedSequence.to``
#: keeps it there, and building one with it elsewhere raises "batch_sizes should always be on
#: CPU"), and an int64 that no dtype judges
_BATCH_SIZES = Step("attr", "batch_sizes", "field")


#: a state dict's key (``module.encoders.0.weight``): a checkpoint's tensor, which
#: ``load_state_dict`` copies into the model wherever either is, never a model's input
_STATE_KEY = re.compile(r"[\w.]*\w\.(?:weight|bias|running_mean|running_var|"
                        r"num_batches_tracked|in_proj_weight|in_proj_bias|\w+_orig)")


def _state_entry(step: Step) -> bool:
    return step.kind == "item" and type(step.key) is str and bool(_STATE_KEY.fullmatch(step.key))


_NOT_YET = "Your cells have not used it with a model yet."
_OUTPUT = "It is what the model returned; your cells have not passed it to a model."
_HANDED = ("Your cells handed it to an object built with the model, whose own code decides "
           "where it meets the model (a trainer moves its batches itself).")


def _not_yet(f: Finding, why: str = _NOT_YET) -> Finding:
    if f.severity == "info":
        return f
    # NB: built directly, not with ``dataclasses.replace`` (several times dearer: one per
    # loose tensor of a namespace no cell has used yet)
    return Finding(f.id, f.kind, "info", f.title,
                   f"{f.message} ({why})", f.fix,
                   f.paths, f.objects, f.devices, f.dtypes, None)


def _cpu_required(o: ObjectRecord, wrong: list[TensorRecord]) -> list[Finding]:
    """Arguments PyTorch wants on the CPU (``pack_padded_sequence`` lengths) on a device."""
    if not wrong:
        return []
    n = len(wrong)
    found = sorted({t.device for t in wrong})
    movable = [t for t in wrong if t.device != "meta" and has_code(t.ref)]
    msg = (f"{_names(wrong)} {'is' if n == 1 else 'are'} on {', '.join(found)}, but your code "
           f"passes {'it' if n == 1 else 'them'} to pack_padded_sequence, which takes its "
           f"lengths as a CPU int64 tensor: keep {'it' if n == 1 else 'them'} on the cpu.")
    return [_finding("cpu_required", "warning", f"{o.name} must stay on the cpu", msg,
                     "\n".join(f"{code_for(t.ref)} = {code_for(t.ref)}.cpu()" for t in movable),
                     (t.path for t in wrong), [o.name], [*found, "cpu"],
                     action=Action("to_device", tuple(t.ref for t in movable), "cpu")
                     if movable else None)]


def _judge(o: ObjectRecord, loose: list[TensorRecord], idx: ModelIndex, ms: list[Model],
           used: bool, attr: str) -> list[Finding]:
    """``loose`` against the models it is used with, or against every model when unknown."""
    ms, fixed = _wants(idx, ms, attr)
    wants = set(fixed)
    if not loose or not ms or None in wants:
        return []
    if len(wants) > 1:
        wrong = [t for t in loose if getattr(t, attr) not in wants]
        return [_ambiguous(o, wrong, ms, attr, used)] if wrong else []
    want = wants.pop()
    assert want is not None
    model = ms[0]
    wrong = [t for t in loose if getattr(t, attr) != want]
    if not wrong:
        return []
    if attr == "dtype":
        return [_loose_finding(o, wrong, None, want, "", model.name)]
    empty = [t for t in wrong if t.device == "meta"]
    rest = [t for t in wrong if t.device != "meta"]
    target = (f"next({model.name}.parameters()).device" if not model.wrapper
              else q(want))
    out = [_loose_finding(o, rest, want, None, target, model.name)] if rest else []
    if empty:
        out.append(_meta_input(o, empty, model, want))
    return out


def _ambiguous(o: ObjectRecord, wrong: list[TensorRecord], ms: list[Model], attr: str,
               used: bool) -> Finding:
    found = sorted({getattr(t, attr) for t in wrong})
    where = ", ".join(f"{m.name}: {getattr(m, attr)}" for m in ms[:4])
    how = ("your cells use it with models that disagree" if used else
           "devicelens could not tell from your cells which one it is used with")
    kind = "loose_device_unknown" if attr == "device" else "loose_dtype_unknown"
    msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} {', '.join(found)}, and the "
           f"models here are not ({where}); {how}. Give it the {attr} of the model you use it "
           f"with.")
    return _finding(kind, "info", f"{o.name}: which model is it for?", msg, "",
                    (t.path for t in wrong), [o.name],
                    found if attr == "device" else (),
                    found if attr == "dtype" else ())


def _meta_input(o: ObjectRecord, empty: list[TensorRecord], model: Model, want: str) -> Finding:
    """A meta tensor holds no data: it cannot go to ``want``; the model can come to meta."""
    n = len(empty)
    msg = (f"{_names(empty)} {'is' if n == 1 else 'are'} on meta but {model.name} is on {want}: "
           f"using {'it' if n == 1 else 'them'} with {model.name} will fail, and a meta tensor "
           f"has no data to copy to {want}. Move {model.name} to meta too, or create "
           f"{o.name} again on {want}.")
    root = (Step("name", model.name),)
    return _finding("meta_no_data", "warning", f"{o.name} is on meta, {model.name} on {want}",
                    msg, f"{code_for(root)}.to(\"meta\")", (t.path for t in empty),
                    [o.name, model.name], ["meta", want],
                    action=Action("to_device", (root,), "meta"))


_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()"}


def _loose_finding(o: ObjectRecord, wrong: list[TensorRecord], device: str | None,
                   dtype: str | None, target: str, model: str) -> Finding:
    call = f"to({target})" if device else _CASTS.get(dtype or "", f"to(torch.{dtype})")
    lines = [_assign(t, call) for t in wrong if has_code(t.ref)]
    if o.type_name == "PackedSequence" and device:
        lines = [f"{o.name} = {o.name}.{call}"]  # NB: keeps its batch_sizes on the cpu
    elif o.frozen or len(lines) < len(wrong):
        # NB: a cast only of the tensors in a wrong dtype: never the labels beside the data
        dts = [f"torch.{d}" for d in sorted({t.dtype for t in wrong})]
        which = ("torch.is_tensor(_t)" if device else
                 f"torch.is_tensor(_t) and _t.dtype in ({', '.join(dts)}{',' * (len(dts) == 1)})")
        lines = [f"{o.name} = torch.utils._pytree.tree_map(lambda _t: _t.{call} if {which} "
                 f"else _t, {o.name})"]
    if device:
        found = sorted({t.device for t in wrong})
        msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} on {', '.join(found)} "
               f"but {model} is on {device}: using {'it' if len(wrong) == 1 else 'them'} with "
               f"{model} will fail.")
        return _finding("loose_device", "warning", f"{o.name} is not on {device}", msg,
                        "\n".join(lines), (t.path for t in wrong), [o.name], [*found, device],
                        action=Action("to_device", tuple(t.ref for t in wrong), device))
    found = sorted({t.dtype for t in wrong})
    msg = (f"{_names(wrong)} {'is' if len(wrong) == 1 else 'are'} {', '.join(found)} but "
           f"{model} is {dtype}: matmuls with its weights raise \"must have the same dtype\".")
    return _finding("loose_dtype", "warning", f"{o.name} is {', '.join(found)}", msg,
                    "\n".join(lines), (t.path for t in wrong), [o.name],
                    dtypes=[*found, dtype or ""],
                    action=Action("to_dtype", tuple(t.ref for t in wrong), dtype=dtype))


def _assign(t: TensorRecord, call: str) -> str:
    """``x = x.to(...)``; for a trainable leaf (an ``nn.Parameter`` an optimizer may hold, a
    ``requires_grad`` weight) its ``.data`` instead: a rebound copy is no leaf, and no optimizer
    trains it."""
    code = code_for(t.ref)
    if t.requires_grad and t.is_leaf:
        return f"{code}.data = {code}.data.{call}"
    return f"{code} = {code}.{call}"


def _names(wrong: list[TensorRecord]) -> str:
    shown = ", ".join(t.path for t in wrong[:3])
    return shown + (f" and {len(wrong) - 3} more" if len(wrong) > 3 else "")
