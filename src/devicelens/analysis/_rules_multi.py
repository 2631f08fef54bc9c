"""Rules about several modules: a helper (a loss with class weights, a separate head) or a
second model off the device of the model or the data it is used with.

Which module is used with which comes from the user's cells (:mod:`._usage`): two models that
are not known to meet are only a note, and of two that meet only one is told to move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from operator import attrgetter

from ..inspect._tree import Step, code_for
from ..inspect.records import ObjectRecord, TensorRecord
from ._usage import Usage
from .findings import (
    Action,
    Finding,
    Memo,
    Model,
    ModelIndex,
    Severity,
    _finding,
    module_tensors,
    q,
)


def _helper_modules(modules: list[ObjectRecord], idx: ModelIndex, usage: Usage,
                    strays: frozenset[str], memo: Memo | None = None) -> list[Finding]:
    """Other modules (a loss with a class-weight buffer, a separate head) off the device of the
    model they are used with.

    NB: a module with parameters is a model in its own right: it is judged only against the
    models the cells use it with (else a note). A helper without parameters follows the models
    when they all agree. A module that is itself split is :func:`_module_split`'s business;
    ``strays`` are models :func:`_stray_models` already told to move.
    """
    out: list[Finding] = []
    ctx = (idx, usage, strays)
    for o in modules:
        out += memo.get(o, "helper", ctx, _helper) if memo is not None else _helper(o, ctx)
    return out


def _helper(o: ObjectRecord, ctx: tuple[ModelIndex, Usage, frozenset[str]]) -> list[Finding]:
    idx, usage, strays = ctx
    ms = idx.ms
    if o.kind != "module" or o.dispatch:
        return []
    own = module_tensors(o)
    devices = set(map(_DEVICE, own))  # NB: C speed: this runs once per module
    if len(devices) != 1:
        return []
    mine = idx.named([o.name])
    partners = idx.named(usage.models_of(o.name, idx.names,
                                         idx.names_of(mine[0]) if mine else frozenset()))
    has_params = "parameter" in map(_ROLE, own)
    ref, wants = (partners, {m.device for m in partners}) if partners else _rest(idx, mine)
    if len(wants) != 1 or None in wants or devices == wants or not ref:
        return []
    want, model, dev = wants.pop(), ref[0], devices.pop()
    assert want is not None
    if has_params and not partners:
        # NB: one note per pair, on the smaller one; none beside a model left behind
        if not (mine and mine[0] == ms[0]) and not {o.name, model.name} & strays:
            return [_apart(o, dev, model, want)]
    elif has_params:
        if _moves_first(mine[0] if mine else None, dev, model, want):
            return [_helper_finding(o, own, dev, model, want, has_params)]
    elif dev == "meta":
        return [_meta_module(o, dev, model, want)]
    else:
        return [_helper_finding(o, own, dev, model, want, has_params)]
    return []


_DEVICE, _ROLE = attrgetter("device"), attrgetter("role")


def _accelerator(device: str | None) -> bool:
    return device is not None and device not in ("cpu", "meta")


def _rest(idx: ModelIndex, mine: list[Model]) -> tuple[list[Model], set[str | None]]:
    """The first of the models but ``mine`` (at most one) and their devices, without a pass
    over them all per module (the device counts are the index's, once)."""
    counts: Counter[str | None] | None = idx.cache.get("devices")
    if counts is None:
        counts = idx.cache["devices"] = Counter(m.device for m in idx.ms)
    if mine:
        counts = counts.copy()
        counts[mine[0].device] -= 1
    first = [m for m in idx.ms[:2] if not mine or m is not mine[0]][:1]
    return first, {d for d, n in counts.items() if n > 0}


def _moves_first(me: Model | None, dev: str, other: Model, want: str) -> bool:
    """Of two models used together on different devices, the one to move (never both: the
    fixes would undo each other). NB: meta holds no data, so the side with data goes to meta;
    otherwise the smaller model goes to the bigger one."""
    if dev == "meta" or me is None:
        return False
    if want == "meta":
        return True
    return (me.nbytes, me.name) < (other.nbytes, other.name)


def _helper_finding(o: ObjectRecord, own: list[TensorRecord], dev: str, model: Model,
                    want: str, has_params: bool) -> Finding:
    what = ("feeding one into the other will fail" if has_params
            else f"calling it on {model.name}'s outputs will fail")
    msg = (f"{o.name} ({o.type_name}) holds {', '.join(t.path for t in own[:3])} on {dev} "
           f"while {model.name}, which it is used with, is on {want}: {what}.")
    root = o.tensors[0].ref[:1]
    return _finding("module_device", "warning", f"{o.name} is not on {want}", msg,
                    f"{code_for(root)}.to({q(want)})", (t.path for t in own),
                    [o.name, model.name], [dev, want],
                    action=Action("to_device", (root,), want))


def _meta_module(o: ObjectRecord, dev: str, model: Model, want: str) -> Finding:
    """``o`` on meta has no data: the other side moves (a meta copy of the model runs)."""
    msg = (f"{o.name} ({o.type_name}) is on meta while {model.name}, which it is used with, is "
           f"on {want}: feeding one into the other will fail. {o.name} has no data to copy to "
           f"{want}: load its weights there ({o.name}.to_empty(device={q(want)}) then "
           f"load_state_dict), or move {model.name} to meta as well.")
    root = (Step("name", model.name),)
    return _finding("meta_no_data", "warning", f"{o.name} is on meta, {model.name} on {want}",
                    msg, f"{code_for(root)}.to(\"meta\")", [o.name], [o.name, model.name],
                    [dev, want], action=Action("to_device", (root,), "meta"))


def _apart(o: ObjectRecord, dev: str, model: Model, want: str) -> Finding:
    msg = (f"{o.name} ({o.type_name}) is on {dev} while {model.name} is on {want}. Your cells "
           f"do not use them together; if you feed one into the other, put both on one device.")
    return _finding("module_apart", "info", f"{o.name} and {model.name} are on different devices",
                    msg, "", [o.name], [o.name, model.name], [dev, want])


def fed_models(idx: ModelIndex, usage: Usage) -> list[tuple[Model, frozenset[str]]]:
    """The models :func:`_stray_models` can judge: on one device, no wrapper, and fed something
    by the cells (with those names). NB: a function of the models and the cells only, so a
    caller keeps it while both are the same: a namespace of many models pays for it once."""
    out = []
    for m in idx.ms:
        if m.device is not None and not m.wrapper:
            names = usage.inputs(m.name)
            if names:
                out.append((m, names))
    return out


def _stray_models(idx: ModelIndex, usage: Usage, fed: list[tuple[Model, frozenset[str]]],
                  find: Callable[[str], ObjectRecord | None]) -> list[Finding]:
    """A model whose data all lives on another device, where another model also uses it: the
    model is the stray (a teacher never moved), not the data. ``fed``: :func:`fed_models`;
    ``find``: the record of a tensor or container by name (None for anything else).

    NB: without that second model, the data is what moves (:mod:`._rules_data`).
    """
    out: list[Finding] = []
    for m, inputs in fed:
        found = {n: rec for n in inputs if (rec := find(n)) is not None}
        names = sorted(found)
        tensors = [t for n in names for t in found[n].tensors if t.role == "tensor"
                   and t.flavor != "opaque" and not (t.shape == () and t.device == "cpu")]
        devices = {t.device for t in tensors}
        if len(devices) != 1 or m.device in devices or m.device == "meta":
            continue
        want = devices.pop()
        mine = idx.names_of(m)
        others = [x for n in names for x in idx.named(usage.models_of(n, idx.names, mine))
                  if x.device == want]
        if others:
            out.append(_stray(m, names, others[0], want))
    return out


def _stray(m: Model, names: list[str], other: Model, want: str) -> Finding:
    shown = ", ".join(names[:3]) + ("…" if len(names) > 3 else "")
    msg = (f"{m.name} is on {m.device}, but what your cells feed it ({shown}) is on {want}, "
           f"where {other.name} uses it too: {m.name} is the one left behind.")
    severity: Severity = "error"
    if _accelerator(m.device) and _accelerator(want):
        # NB: a model is left behind on the cpu, where it was made; one on a second GPU was put
        # there (an SAE beside its LLM, a teacher beside its student): maybe on purpose, and
        # then the fix is where the two meet, not a move that undoes the layout
        severity = "warning"
        msg = (f"{m.name} is on {m.device}, but what your cells feed it ({shown}) is on {want}, "
               f"where {other.name} uses it too. If {m.name} is on {m.device} on purpose, move "
               f"the data to it where the two meet; if not, it is the one left behind.")
    root = (Step("name", m.name),)
    return _finding("model_left_behind", severity, f"{m.name} is not on {want}", msg,
                    f"{code_for(root)}.to({q(want)})", [m.name], [m.name, *names],
                    [m.device or "", want], action=Action("to_device", (root,), want))
