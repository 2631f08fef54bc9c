"""Snapshot -> findings: what will break, which objects, why, and the fix as code in user names.

Every finding also carries an :class:`Action`, a structured description of the same fix that the
move engine can apply (never code: the kernel never executes strings). Intentional layouts
(accelerate dispatch, DTensor, the optimizer ``step`` counter, 0-dim CPU tensors, integer
counters) are never flagged. The rules live in :mod:`._rules_modules` (one module),
:mod:`._rules_multi` (modules used together), :mod:`._rules_optim` and :mod:`._rules_data`.
NB: no rule reads a grad's storage (parameters' storages only): after a training step, which
only gives grads new storages, the panel's memo keeps the findings it had (:meth:`Memo.alias`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter
from typing import Any

from ..inspect._class_sources import MARK
from ..inspect._tree import display_for
from ..inspect.records import ObjectRecord, Snapshot
from ._rules_data import _loose
from ._rules_modules import (
    _dataparallel,
    _module_dtypes,
    _module_split,
    _traps,
    is_norm,
)
from ._rules_multi import _helper_modules, _stray_models, fed_models
from ._rules_optim import _optimizer
from ._usage import AUTOCAST, FED, Usage
from .findings import (
    DEVICE_KINDS,
    DTYPE_KINDS,
    Action,
    Finding,
    Memo,
    Model,
    ModelIndex,
    Severity,
    is_float,
    majority,
    models,
    module_tensors,
    module_tensors_kept,
)

__all__ = ["DEVICE_KINDS", "DTYPE_KINDS", "Action", "Finding", "Memo", "Severity", "diagnose",
           "is_float", "majority", "module_tensors"]

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
_RECORD, _KIND = itemgetter(1), attrgetter("kind")


def diagnose(snap: Snapshot, cells: Sequence[str] | None = None,
             memo: Memo | None = None) -> list[Finding]:
    """All findings for ``snap``, errors first. Pure: reads the snapshot, touches nothing else.

    ``cells``: the user's recent cell sources, oldest first (default: the snapshot's own, read
    from IPython's ``In``), parsed (never run) to tell which model each tensor is used with.
    ``memo``: kept by a caller that diagnoses the same namespace again and again (the panel,
    after each cell): findings of unchanged records in an unchanged context are reused.
    NB: modules and optimizers are read from ``snap.composites()``, a big namespace's loose
    tensors by group (:func:`._rules_data._candidates`): no record per loose tensor.
    """
    with module_tensors_kept():
        return _diagnose(snap, cells, memo if memo is not None else Memo())


def _diagnose(snap: Snapshot, cells: Sequence[str] | None, m: Memo) -> list[Finding]:
    comps, modules = _composites(m, snap)
    cached: tuple[tuple[ObjectRecord, ...], list[Model]] | None = m.shared.get("ms")
    if cached is not None and cached[0] is modules:  # NB: the very records: the same models
        ms = cached[1]
    else:
        ms = m.same("models", models(modules, m))
        m.shared["ms"] = (modules, ms)
    idx = m.shared.get("index")
    if idx is None or idx.ms is not ms:
        idx = m.shared["index"] = ModelIndex(ms)
    usage = _usage(m, snap.cells if cells is None else (  # NB: with the library classes'
        *cells, *(c for c in snap.cells if c.startswith(MARK))), modules)  # sources
    last: tuple[Snapshot, Usage, list[Finding]] | None = m.shared.get("last")
    if last is not None and last[1] is usage and last[0].same_records(snap):
        return list(last[2])  # NB: a function of the records and the usage, both the same
    fed = m.shared.get("fed")
    if fed is None or fed[0] is not idx or fed[1] is not usage:
        fed = m.shared["fed"] = (idx, usage, fed_models(idx, usage))
    out: list[Finding] = _stray_models(idx, usage, fed[2], partial(_find, snap))
    out += _per_object(m, comps, modules, idx, usage, frozenset(f.objects[0] for f in out))
    out += _loose(snap, idx, usage, m)
    out = _not_orphans(snap, out)
    out = _not_references(snap, out)
    out = _moved_at_use(snap, usage, out)
    out = _cast_at_use(snap, usage, out)
    out = _unread_by_forward(snap, usage, out)
    m.roll()
    out.sort(key=lambda f: _SEVERITY_ORDER[f.severity])
    m.shared["last"] = (snap, usage, out)
    return list(out)


def _unread_by_forward(snap: Snapshot, usage: Usage, out: list[Finding]) -> list[Finding]:
    """``out`` with each "its forward pass will fail" split made a note where the model's
    own class (defined in the cells) never reads the strays in its ``forward``
    (Real-Time-Voice-Cloning's speaker encoder keeps its similarity scale and its loss on a
    cpu ``loss_device`` beside an LSTM on the GPU; only its ``loss`` reads them, with inputs
    it is handed there). NB: the strays' own attributes of the model, read off their refs."""
    splits = [f for f in out if f.kind == "module_split" and f.severity == "error"
              and f.objects and f.objects[0] in snap and f.paths]
    if not splits:
        return out
    swap: dict[int, Finding] = {}
    for f in splits:
        o = snap[f.objects[0]]
        reads = usage.forward_reads(o.type_name)
        if reads is None:
            continue
        wanted = set(f.paths)
        strays = [t for t in o.tensors if t.path in wanted]
        attrs = {str(t.ref[1].key) if len(t.ref) > 1 and t.ref[1].kind == "attr" else ""
                 for t in strays}
        if not strays or "" in attrs or attrs & reads:
            continue
        names = ", ".join(f"{o.name}.{a}" for a in sorted(attrs))
        swap[id(f)] = Finding(
            f.id, "module_split", "info", f"{o.name} keeps {names} elsewhere",
            f"{o.name} keeps {names} on {', '.join(sorted({t.device for t in strays}))}, "
            f"apart from the rest of it, and {o.type_name}.forward never reads "
            f"{'it' if len(attrs) == 1 else 'them'}: its forward pass does not fail. Another "
            f"method of it that reads {'it' if len(attrs) == 1 else 'them'} needs inputs "
            f"there.", "", f.paths, f.objects, f.devices)
    return [swap.get(id(f), f) for f in out]


def _not_orphans(snap: Snapshot, out: list[Finding]) -> list[Finding]:
    """``out`` without the "stale parameters" of an optimizer that trains Parameters the
    namespace holds by name (a soft prompt beside a model, ``popt = Adam([prompt])``): they
    belong to no module on purpose. NB: read only when such a finding exists (it is rare)."""
    orphans = [f for f in out if f.kind == "optimizer_orphan" and f.action is None
               and f.objects and f.objects[0] in snap]
    if not orphans:
        return out
    named = {t.storage for t in snap.tensors() if t.role == "tensor" and t.is_leaf
             and t.requires_grad}
    drop = set()
    for f in orphans:
        ps = [t.storage for t in snap[f.objects[0]].tensors if t.role == "opt_param"]
        if ps and all(p in named for p in ps):
            drop.add(id(f))
    return [f for f in out if id(f) not in drop]


def _moved_at_use(snap: Snapshot, usage: Usage, out: list[Finding]) -> list[Finding]:
    """``out`` with each "plain tensor attribute left behind" error made a note when its
    module's own class (defined in the cells) moves that attribute where it reads it (fairseq's
    ``self.weights = self.weights.to(x)``): nothing fails, and a buffer is only tidier; or
    assigns it in ``forward`` (seq2seq's ``self.pos_index``): a move is undone at the next call;
    or never reads it at all (a focal loss keeps ``self.alpha`` and reads the copy its
    ``NLLLoss`` holds as a buffer); or keeps a container of one tensor per device and reads the
    one on its input's device (unsloth's RoPE caches, ``self.cos_cached[x.device.index]``).
    NB: read only when such a finding exists."""
    traps = [f for f in out if f.kind in ("trap_attribute", "trap_container") and f.objects
             and f.objects[0] in snap and f.paths]
    if not traps:
        return out
    swap: dict[int, Finding] = {}
    for f in traps:
        o = snap[f.objects[0]]
        role = "attribute" if f.kind == "trap_attribute" else "trapped"
        t = next((t for t in o.tensors if t.path == f.paths[0] and t.role == role), None)
        if t is None:
            continue
        cls = o.type_name if t.owner == o.name else next(
            (m.type_name for m in o.modules if m.path == t.owner), "")
        # NB: a tensor in a plain dict or list is read through the container's attribute
        key = str(t.ref[-1].key if role == "attribute" else t.ref[-2].key)
        path = t.path if role == "attribute" else display_for(t.ref[:-1])
        what = (f"{path} is a plain tensor attribute on {t.device}" if role == "attribute"
                else f"{path} keeps tensors in a plain container on {t.device}")
        if key in usage.remade_at_call(cls):
            swap[id(f)] = Finding(
                f.id, "trap_latent", "info", f"{path} is made again at each call",
                f"{what}, and {cls}.forward assigns it at each call: moving it changes "
                f"nothing; the line of {cls}.forward that makes it decides its device.", "",
                f.paths, f.objects, f.devices)
        elif (read := usage.read_attrs(cls)) is not None and (held := _held_by(t)) \
                and held not in read:
            swap[id(f)] = Finding(
                f.id, "trap_latent", "info", f"{path} is never read",
                f"{what}, but nothing in {cls}'s own code reads it, so nothing fails. "
                f"Registered as a buffer, Module.to() would move it.", f.fix, f.paths,
                f.objects, f.devices)
        elif role == "trapped" and key in usage.picked_by_device(cls):
            swap[id(f)] = Finding(
                f.id, "trap_latent", "info", f"{path} keeps one tensor per device",
                f"{path} keeps tensors in a plain container, one per device, and {cls}'s own "
                f"code reads the one on the device of what it is given, so nothing fails. "
                f"Module.to() moves none of them.", "", f.paths, f.objects, f.devices)
        elif role == "attribute" and len(t.shape or ()) == 1 \
                and key in usage.read_as_items(cls):
            swap[id(f)] = Finding(
                f.id, "trap_latent", "info", f"{path} is read an item at a time",
                f"{what}, and {cls}'s own code reads only its items, each a 0-dim tensor, "
                f"which may sit on the cpu beside tensors on any device: nothing fails. "
                f"Registered as a buffer, Module.to() would move it.", f.fix, f.paths,
                f.objects, f.devices)
        elif key in usage.moved_at_use(cls):
            swap[id(f)] = Finding(
                f.id, "trap_latent", "info", f"{path} is moved where it is used",
                f"{what}; {cls}'s own code moves it where it reads it, so nothing fails. "
                f"Registered as a buffer, Module.to() would move it once.", f.fix, f.paths,
                f.objects, f.devices)
    return [swap.get(id(f), f) for f in out]


def _held_by(t: Any) -> str:
    """The attribute of its module that holds ``t`` (``masks`` for ``arn.masks[0]``); '' where
    the step after the module's path is not an attribute (a module reached by index holds no
    name here)."""
    at = len(t.owner.split("."))
    step = t.ref[at] if at < len(t.ref) else None
    return str(step.key) if step is not None and step.kind == "attr" else ""


def _cast_at_use(snap: Snapshot, usage: Usage, out: list[Finding]) -> list[Finding]:
    """``out`` with each "mixes floating dtypes" warning made a note where every stray is cast
    where it is read, by its module's own class or one above it (defined in the cells), or
    (in a half model) is a normalisation layer's or a buffer kept in float32: nothing fails.
    OpenAI CLIP halves its linear layers and keeps ``positional_embedding`` in float32, read as
    ``self.positional_embedding.to(x.dtype)``; ESMFold halves its language-model stem and casts
    what the stem gives to its float32 trunk's dtype. NB: read only when such a finding exists."""
    mixed = [f for f in out if f.kind == "module_mixed_dtype" and f.objects
             and f.objects[0] in snap and f.paths]
    if not mixed:
        return out
    swap: dict[int, Finding] = {}
    for f in mixed:
        o = snap[f.objects[0]]
        classes = {m.path: m.type_name for m in o.modules}
        weights = [t for t in o.tensors if t.role in ("parameter", "buffer") and t.shape != ()]
        if not _HALF & set(f.dtypes):
            # NB: float64 beside float32 (NequIP's per-species scales and shifts, read as
            # ``self.scales[idx].to(x.dtype)``): kept wide on purpose where the code casts
            target = f.action.dtype if f.action is not None else None
            strays = [t for t in weights if t.dtype in f.dtypes and t.dtype != target]
            cast = _all_cast(strays, False, classes, o, usage) if target and strays else None
            if cast:
                swap[id(f)] = _kept(f, o.name, strays, cast)
            continue
        # NB: every stray weight and buffer, not ``f.paths`` (shortened past a dozen): the
        # float32 ones of a half model first (CLIP), then, where float32 is the model's own
        # dtype, the half ones (ESMFold's stem)
        for strays, half in (([t for t in weights if t.dtype == "float32"], True),
                             ([t for t in weights if t.dtype in _HALF], False)):
            if not half and (f.action is None or f.action.dtype != "float32"):
                continue
            cast = _all_cast(strays, half, classes, o, usage)
            if cast:
                swap[id(f)] = _kept(f, o.name, strays, cast)
                break
    return [swap.get(id(f), f) for f in out]


def _all_cast(strays: list[Any], half: bool, classes: dict[str, str], o: ObjectRecord,
              usage: Usage) -> list[str] | None:
    """The paths of ``strays`` cast where they are read, where every one is (in a ``half``
    model a normalisation layer's tensors and buffers are kept in float32 on purpose, and
    need no cast); None otherwise."""
    cast = []
    for t in strays:
        cls = classes.get(t.owner, o.type_name if t.owner == o.name else "")
        if half and (is_norm(cls) or t.role == "buffer"):
            continue
        if not half and t.role == "buffer" and str(t.ref[-1].key) in usage.accumulated(cls):
            cast.append(t.path)  # NB: a wide sum its class only adds into (torchmetrics)
            continue
        if not _cast_where_read(t, cls, classes, o, usage, inputs=half):
            return None
        cast.append(t.path)
    return cast or None


def _kept(f: Finding, name: str, strays: list[Any], cast: list[str]) -> Finding:
    """The note that takes a "mixes floating dtypes" warning's place: the strays are kept in
    their dtype on purpose."""
    n = len(strays)
    kept = ", ".join(sorted({t.dtype for t in strays}))
    shown = ", ".join(cast[:3]) + (f" and {len(cast) - 3} more" if len(cast) > 3 else "")
    rest = (" and the rest are normalisation layers' or buffers, kept in float32 for "
            "precision" if len(cast) < n else "")
    return Finding(
        f.id, "module_float32_kept", "info",
        f"{name} keeps {n} tensor{'' if n == 1 else 's'} in {kept}",
        f"{name} mixes floating dtypes {', '.join(f.dtypes)}, on purpose: its own code casts "
        f"where {shown} {'meets' if len(cast) == 1 else 'meet'} other dtypes, or only adds "
        f"into {'it' if len(cast) == 1 else 'them'} in place{rest}. Nothing fails, so "
        f"devicelens casts nothing.",
        "", f.paths, f.objects, f.devices, f.dtypes)


_HALF = frozenset({"float16", "bfloat16"})


def _cast_where_read(t: Any, cls: str, classes: dict[str, str], o: ObjectRecord,
                     usage: Usage, inputs: bool = True) -> bool:
    """The weight ``t`` is cast where its module's code reads it (``self.pos.to(x.dtype)``),
    or its module's output is, by the module holding it (``self.token_embedding(text)
    .type(self.dtype)``), or that module casts its module's input to its dtype (TRL's value
    head: ``self.summary(output.to(self.summary.weight.dtype))``). Not ``inputs``: only the
    first two, which give what meets the rest of the model in the rest's dtype (a half layer
    handed half inputs gives half outputs, which a float32 model's next layer refuses); so
    neither is a float32 model's half weight run under autocast (its output is half too)."""
    key, owner = str(t.ref[-1].key), t.owner
    head, sep, param = owner.rpartition(".parametrizations.")
    if sep and "." not in param:
        # NB: torch's parametrize (``orthogonal``, ``weight_norm``): ``m.weight`` reads
        # ``m.parametrizations.weight.original``, and ``m``'s class is a subclass torch made
        # (``ParametrizedRotateLayer``) of the class the code defines
        key, owner = param, head
        cls = classes.get(owner, o.type_name if owner == o.name else "").removeprefix(
            "Parametrized")
    own = usage.casts_inputs(cls) if inputs else frozenset()
    if key in usage.moved_at_use(cls) or key in usage.cast_at_use(cls) \
            or key in own or AUTOCAST + key in own:
        # NB: the last: its class casts its input to this weight's dtype (pyvene's rotation:
        # ``torch.matmul(x.to(self.weight.dtype), self.weight)``), as TRL hands its head
        return True
    parent, _, name = owner.rpartition(".")
    while parent:  # NB: any module above: ESMFold casts what its whole ``esm`` stem gives
        pcls = classes.get(parent, o.type_name if parent == o.name else "")
        casts = usage.casts_inputs(pcls) if pcls and inputs else frozenset()
        if pcls and (name in usage.moved_at_use(pcls) or name in casts
                     or (parent == o.name and FED + name in casts) or AUTOCAST + name in casts):
            return True
        parent, _, name = parent.rpartition(".")
    return False


def _not_references(snap: Snapshot, out: list[Finding]) -> list[Finding]:
    """``out`` without the "module held in a plain list" errors whose module is a model the
    namespace holds by its own name (ema-pytorch keeps ``online_model = [model]`` so that the
    EMA's ``to()``, ``parameters()`` and ``state_dict()`` leave the user's model alone): the
    user moves it by that name. NB: read only when such a finding exists."""
    traps = [f for f in out if f.kind == "trap_module" and f.objects and f.objects[0] in snap]
    if not traps:
        return out
    owned: dict[int, set[str]] = {}
    for _pos, o in snap.composites():
        for t in o.tensors:
            if t.role in ("parameter", "buffer"):
                owned.setdefault(t.storage, set()).add(o.name)
    drop = set()
    for f in traps:
        held = [t for t in snap[f.objects[0]].tensors if t.role == "trapped"
                and any(t.path.startswith(p + ".") for p in f.paths)]
        if held and all(owned.get(t.storage, set()) - {f.objects[0]} for t in held):
            drop.add(id(f))
    return [f for f in out if id(f) not in drop]


def _composites(m: Memo, snap: Snapshot
                ) -> tuple[tuple[ObjectRecord, ...], tuple[ObjectRecord, ...]]:
    """Every module and optimizer record, and the modules alone, each as the equal tuple the
    last diagnosis used. NB: a snapshot that shares the last one's columns (a cell that changed
    no object) shares its composites list too: then nothing is compared again."""
    src = snap.composites()
    last: tuple[Any, ...] | None = m.shared.get("composites")
    if last is not None and last[0] is src:
        return last[1], last[2]
    comps = m.same("comps", tuple(map(_RECORD, src)))
    modules = m.same("modules", tuple(compress(comps, map(eq, map(_KIND, comps),
                                                          repeat("module")))))
    m.shared["composites"] = (src, comps, modules)
    return comps, modules


def _per_object(m: Memo, comps: tuple[ObjectRecord, ...], modules: tuple[ObjectRecord, ...],
                idx: ModelIndex, usage: Usage, strays: frozenset[str]) -> list[Finding]:
    """The findings of each module and optimizer on its own (and of helper modules). NB: when
    the records, models, cells and strays are the very same as last time, so are these: the
    last list is reused and its memo entries kept, not looked up one by one."""
    last: tuple[Any, ...] | None = m.shared.get("per_object")
    if (last is not None and last[0] is comps and last[1] is idx and last[2] is usage
            and last[3] == strays):
        m.keep(last[5])
        return list(last[4])
    out = _helper_modules(list(modules), idx, usage, strays, m)
    mctx = (modules, usage)
    keys: list[tuple[int, str]] = [(id(o), "helper") for o in modules]
    for o in comps:
        if o.kind == "module":
            out += m.get(o, "module", None, _module_rules)
            keys.append((id(o), "module"))
        elif o.kind == "optimizer":
            out += m.get(o, "optimizer", mctx, _optimizer)
            keys.append((id(o), "optimizer"))
    twice = _held_twice(comps) | _same_module_again(modules)
    if twice:
        out = [f for f in out if not (f.objects and f.objects[0] in twice)]
    owned = _owned_by_a_holder(comps)
    if owned:
        out = [f for f in out if not (f.kind == "optimizer_orphan" and f.objects
                                      and f.objects[0] in owned)]
    m.shared["per_object"] = (comps, idx, usage, strays, out, keys)
    return list(out)


def _held_twice(comps: tuple[ObjectRecord, ...]) -> frozenset[str]:
    """The names that read, through a helper object (``trainer.optimizer``), an optimizer that
    also has a name of its own: its findings are given once, under that name.
    NB: told by its very state tensors (no two optimizers share one). One with no state yet
    cannot be told from another over the same parameters (a re-created optimizer, say): both
    keep their findings."""
    held = [o for o in comps if o.kind == "optimizer" and o.tensors
            and o.tensors[0].ref[1].kind == "attr"]
    if not held:
        return frozenset()
    named = {_state_of(o) for o in comps if o.kind == "optimizer" and o.tensors
             and o.tensors[0].ref[1].kind != "attr"}
    return frozenset(o.name for o in held if (state := _state_of(o)) and state in named)


def _owned_by_a_holder(comps: tuple[ObjectRecord, ...]) -> frozenset[str]:
    """The names of optimizers whose parameters are all those of an optimizer a plain object
    holds beside its own model, which names them (``opt = client.optimizer``, the client
    holding ``client.model``): they update that model, whatever namespace module has their
    shapes. NB: told by the parameters' storages."""
    held = {frozenset(t.storage for t in ps) for o in comps if o.kind == "optimizer"
            and o.tensors and o.tensors[0].ref[1].kind == "attr"
            and (ps := [t for t in o.tensors if t.role == "opt_param"])
            and all(t.owner for t in ps)}
    if not held:
        return frozenset()
    return frozenset(o.name for o in comps if o.kind == "optimizer" and o.tensors
                     and frozenset(t.storage for t in o.tensors if t.role == "opt_param")
                     in held)


def _same_module_again(modules: tuple[ObjectRecord, ...]) -> frozenset[str]:
    """The later names of a module the namespace holds twice (``model``, and a loop's leftover
    ``block`` bound to it): its findings are given once, under its first name. NB: told by its
    very storages, every parameter and buffer the same; a module with none has no findings."""
    seen: set[frozenset[int]] = set()
    out: list[str] = []
    for o in modules:
        key = frozenset(t.storage for t in o.tensors if t.role in ("parameter", "buffer",
                                                                 "attribute", "trapped"))
        if not key:
            continue
        if key in seen:
            out.append(o.name)
        seen.add(key)
    return frozenset(out)


def _state_of(o: ObjectRecord) -> frozenset[int]:
    return frozenset(t.storage for t in o.tensors if t.role == "state")


def _usage(m: Memo, cells: tuple[str, ...], modules: tuple[ObjectRecord, ...]) -> Usage:
    """The cells' usage; the last one while its input, or else every answer, is the same.
    NB: identity then means equality, so contexts holding it compare cheaply."""
    old: tuple[tuple[str, ...], dict[str, str], Usage, Any] | None = m.shared.get("usage")
    # NB: the very modules tuple (see _composites): the same names and types
    types = old[1] if old is not None and old[3] is modules else {
        o.name: o.type_name for o in modules}
    if old is not None and old[0] == cells and old[1] == types:
        return old[2]
    usage = Usage(cells, types)
    if old is not None and old[2].key() == usage.key():
        usage = old[2]
    m.shared["usage"] = (cells, types, usage, modules)
    return usage


def _find(snap: Snapshot, name: str) -> ObjectRecord | None:
    if name not in snap:
        return None
    rec = snap[name]
    return rec if rec.kind in ("tensor", "container") else None


def _module_rules(o: ObjectRecord, _context: object) -> list[Finding]:
    return (_dataparallel(o) or _module_split(o)) + _module_dtypes(o) + _traps(o)
