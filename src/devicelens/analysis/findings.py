"""What a finding is, and the small helpers every rule shares (majority device, module tensors).

``Finding.fix`` is code for humans; ``Finding.action`` is the same fix as structured data for the
move engine, which never executes strings.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, eq, is_not
from typing import Any, Literal, NamedTuple, TypeVar

from ..inspect._tree import Ref, str_literal
from ..inspect.records import ObjectRecord, TensorRecord

Severity = Literal["error", "warning", "info"]
T = TypeVar("T")
V = TypeVar("V")
MAX_PATHS = 12


@dataclass(frozen=True)
class Action:
    """A fix the move engine can apply: move or cast the objects at ``refs``.

    ``op``: ``to_device`` (modules in place, tensors rebound), ``to_dtype`` (cast the culprits
    only), ``optimizer_state`` (each state tensor to its own parameter's device/dtype),
    ``optimizer_remap`` (point the optimizer at ``pairs``' new parameters, state kept and moved
    to them: ``refs`` is the optimizer, each pair (its stale parameter, the module's current one)).
    """

    op: Literal["to_device", "to_dtype", "optimizer_state", "optimizer_remap"]
    refs: tuple[Ref, ...]
    device: str | None = None
    dtype: str | None = None
    pairs: tuple[tuple[Ref, Ref], ...] = ()


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
    #: "verified: ..." or "not verified: why", once ``%devices`` rehearsed the fix; '' when not
    verdict: str = ""



DEVICE_KINDS = ("module_split", "module_device", "trap_attribute", "trap_unplaced", "trap_module",
                "trap_container", "optimizer_state", "optimizer_orphan", "dataparallel_device",
                "loose_device", "meta_no_data", "model_left_behind", "cpu_required",
                "norm_weight_stale")
DTYPE_KINDS = ("optimizer_state_dtype", "loose_dtype", "module_mixed_dtype",
               "module_float32_kept")


def _finding(kind: str, severity: Severity, title: str, message: str, fix: str,
             paths: Iterable[str], objects: Iterable[str], devices: Iterable[str] = (),
             dtypes: Iterable[str] = (), action: Action | None = None) -> Finding:
    paths = tuple(dict.fromkeys(paths))
    # NB: the id covers what the fix does (its target), so a request approved for one fix can
    # never carry out another: a changed target is a new id, and the old one is stale
    does = (action.op, action.device or "", action.dtype or "") if action is not None else ()
    digest = hashlib.sha1("\0".join((kind, *paths, *does)).encode()).hexdigest()[:12]
    return Finding(f"{kind}-{digest}", kind, severity, title, message, fix,
                   _cap(paths), tuple(dict.fromkeys(objects)), tuple(dict.fromkeys(devices)),
                   tuple(dict.fromkeys(dtypes)), action)


def _cap(paths: tuple[str, ...]) -> tuple[str, ...]:
    if len(paths) <= MAX_PATHS:
        return paths
    return (*paths[:MAX_PATHS], f"… and {len(paths) - MAX_PATHS} more")


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def is_real_float(dtype: str) -> bool:
    """A real floating dtype a model computes in: what a model's dtype is, and what dtype
    mismatches are judged in. NB: a complex tensor is no stray beside float weights: rotary
    embeddings keep ``freqs_cis`` complex64 in float32 and bfloat16 models on purpose, and
    casting it to a real dtype (which ``Module.to(dtype)`` does) drops its imaginary part. Nor
    is an 8- or 4-bit float: weights stored so (with their scales) are used through scaled
    matmuls, and casting them to the model's dtype undoes the quantisation."""
    return dtype.startswith(("float", "bfloat")) and not dtype.startswith(("float8", "float4"))


#: the submodules PEFT keeps a LoRA adapter's weights in (``lora_A.default``, DoRA's magnitude)
PEFT_ADAPTERS = frozenset({"lora_A", "lora_B", "lora_embedding_A", "lora_embedding_B",
                           "lora_magnitude_vector"})


def is_adapter(t: TensorRecord) -> bool:
    """A PEFT LoRA adapter's weight. NB: PEFT (0.11 and later, ``autocast_adapter_dtype``)
    keeps them in float32 beside a float16/bfloat16 base model on purpose, and its layers cast
    their inputs to the adapter's dtype: they neither make the model "mixed" nor set its dtype."""
    return not PEFT_ADAPTERS.isdisjoint(t.owner.split("."))


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
    """NB: inside :func:`module_tensors_kept` every answer is kept: several rules ask it of
    each module in one diagnosis (records are immutable, and the kept one is held, so
    identity means the same record)."""
    kept: dict[int, tuple[ObjectRecord, list[TensorRecord]]] | None = getattr(_KEPT, "own",
                                                                                None)
    if kept is not None:
        hit = kept.get(id(o))
        if hit is not None and hit[0] is o:
            return list(hit[1])
    ts = o.tensors
    own = list(compress(ts, map(_OWN_ROLES.__contains__, map(_ROLE, ts))))
    if not all(map(_SHAPE, own)):  # NB: C-speed scans; a 0-dim one is rare, judged alone
        own = [t for t in own if t.shape != () or is_float(t.dtype)]
    if kept is not None:
        kept[id(o)] = (o, own)
    return list(own)


@contextmanager
def module_tensors_kept() -> Iterator[None]:
    """Within (one diagnosis, in this thread): :func:`module_tensors` keeps its answers;
    after, none is kept, so no record outlives its diagnosis here."""
    outer = getattr(_KEPT, "own", None)
    _KEPT.own = {} if outer is None else outer
    try:
        yield
    finally:
        _KEPT.own = outer


_KEPT = threading.local()
_OWN_ROLES = frozenset({"parameter", "buffer"})
_ROLE, _SHAPE, _DEVICE = attrgetter("role"), attrgetter("shape"), attrgetter("device")
_DTYPE, _NBYTES, _STORAGE = attrgetter("dtype"), attrgetter("nbytes"), attrgetter("storage")


def parameters(o: ObjectRecord) -> list[TensorRecord]:
    """The records of ``o``'s tensors whose role is ``parameter``, in order (C speed)."""
    ts = o.tensors
    return list(compress(ts, map(eq, map(_ROLE, ts), repeat("parameter"))))


def q(s: str) -> str:
    """``s`` as a string literal in a fix (see :func:`~devicelens.inspect._tree.str_literal`)."""
    return str_literal(s)


class Layout(NamedTuple):
    """Where "the model" is: the module holding the most parameter bytes (the main model).

    ``device``/``dtype`` are None when the main model itself is split or mixed: then no loose
    tensor can be said to be in the wrong place. A DataParallel's device is ``device_ids[0]``,
    where its module must live, whatever its current placement.
    """

    device: str | None
    dtype: str | None
    model: str | None
    wrapper: str


def model_layout(objects: Iterable[ObjectRecord]) -> Layout:
    best: ObjectRecord | None = None
    best_bytes = -1
    for o in objects:
        if o.kind != "module" or o.dispatch or not module_tensors(o):
            continue
        nbytes = sum(t.nbytes for t in o.tensors if t.role == "parameter")
        if nbytes > best_bytes:
            best, best_bytes = o, nbytes
    if best is None:
        return Layout(None, None, None, "")
    own = module_tensors(best)
    devices = {t.device for t in own}
    dtypes = {d for d in {t.dtype for t in parameters(best)} if is_real_float(d)}
    device = devices.pop() if len(devices) == 1 else None
    if best.wrapper == "DataParallel" and best.device_ids:
        device = f"cuda:{best.device_ids[0]}"
    return Layout(device, dtypes.pop() if len(dtypes) == 1 else None, best.name, best.wrapper)


class Model(NamedTuple):
    """A module holding parameters: something a loose tensor can be an input of.

    ``device``/``dtype`` None: the model itself is split or mixed. ``aliases``: other names for
    the same parameters (a wrapper, a submodule bound to its own name), judged as this one.
    """

    name: str
    device: str | None
    dtype: str | None
    nbytes: int
    wrapper: str
    aliases: tuple[str, ...] = ()


def models(objects: Iterable[ObjectRecord], memo: Memo | None = None) -> list[Model]:
    """Every model in the namespace, largest first, each set of parameters once.

    NB: a module whose parameters are all another's (a DataParallel and its module, ``enc =
    model.encoder``) is an alias of the bigger one; between equals, the wrapper wins.
    """
    found: list[tuple[Model, frozenset[int]]] = []
    for o in objects:
        if o.kind != "module" or o.dispatch:
            continue
        got = memo.get(o, "model", None, _model_entry) if memo is not None else _model_entry(o)
        if got is not None:
            found.append(got)
    found.sort(key=lambda ms: (-len(ms[1]), not ms[0].wrapper, -ms[0].nbytes))
    out: list[tuple[Model, frozenset[int]]] = []
    holders: dict[int, list[int]] = {}  # storage -> the entries of ``out`` holding it, in order
    for m, storages in found:
        # NB: an owner holds every storage, so only the holders of any one are candidates
        some = next(iter(storages))
        owner = next((i for i in holders.get(some, ()) if storages <= out[i][1]), None)
        if owner is None:
            for st in storages:
                holders.setdefault(st, []).append(len(out))
            out.append((m, storages))
        else:
            big, s = out[owner]
            out[owner] = (big._replace(aliases=(*big.aliases, m.name)), s)
    return sorted((m for m, _s in out), key=lambda m: -m.nbytes)


def _model_entry(o: ObjectRecord, _context: object = None,
                 ) -> tuple[Model, frozenset[int]] | None:
    """``o`` as a model and its parameters' storages; None: it holds no parameters."""
    params = parameters(o)
    if not params or not module_tensors(o):
        return None
    return _model(o, params), frozenset(map(_STORAGE, params))


def _model(o: ObjectRecord, params: list[TensorRecord]) -> Model:
    """NB: its dtype is its parameters' (they meet the inputs in its matmuls): a buffer of
    another dtype is the module rule's to judge (a float32 ``inv_freq`` in a bfloat16 model is
    deliberate), and leaves the model's dtype known."""
    own = module_tensors(o)
    devices = set(map(_DEVICE, own))
    dtypes = {d for d in set(map(_DTYPE, params)) if is_real_float(d)}
    if len(dtypes) > 1:  # NB: C-speed first; PEFT adapters (float32 on purpose) rarely
        dtypes = {t.dtype for t in params if is_real_float(t.dtype) and not is_adapter(t)}
    device = devices.pop() if len(devices) == 1 else None
    if o.wrapper == "DataParallel" and o.device_ids:
        device = f"cuda:{o.device_ids[0]}"
    nbytes = sum(map(_NBYTES, params))
    if o.modules and o.modules[0].hf_hook == "autocast":
        dtypes = set()  # NB: its forward runs under autocast: no input dtype to ask of anyone
    return Model(o.name, device, dtypes.pop() if len(dtypes) == 1 else None, nbytes, o.wrapper)


class ModelIndex:
    """The models of one diagnosis by every name they go by: :func:`model_named` and
    :func:`model_names` in constant time per name (a namespace can hold a thousand models)."""

    def __init__(self, ms: list[Model]) -> None:
        self.ms = ms
        self.pos = {n: i for i, m in enumerate(ms) for n in (m.name, *m.aliases)}
        self.names = frozenset(self.pos)
        self.cache: dict[str, Any] = {}  # what rules derive from all the models, once

    def named(self, names: Iterable[str]) -> list[Model]:
        """As :func:`model_named`: each once, in ``ms`` order."""
        pos = self.pos
        return [self.ms[i] for i in sorted({pos[n] for n in names if n in pos})]

    def names_of(self, m: Model) -> frozenset[str]:
        return frozenset((m.name, *m.aliases))


class Memo:
    """What the last diagnosis computed, per record and rule: a diagnosis after each cell
    recomputes a rule only for records that are new or whose context changed.

    NB: exact because a rule's findings are a function of its record and the context it is
    given (both compared here: records by identity, they are immutable), and an entry holds its
    record, so the id keying it is never reused while it lives.
    """

    def __init__(self) -> None:
        self.last: dict[tuple[int, str], tuple[Any, Any, Any]] = {}
        self.now: dict[tuple[int, str], tuple[Any, Any, Any]] = {}
        # NB: entries keyed by the record's value (see get_equal), rolled with the others
        self.last_eq: dict[tuple[Any, str], tuple[Any, Any]] = {}
        self.now_eq: dict[tuple[Any, str], tuple[Any, Any]] = {}
        self.shared: dict[str, Any] = {}  # the last diagnosis' context objects, by kind
        self.aliases: dict[int, tuple[Any, Any]] = {}  # id of a record -> (it, its twins)

    def get(self, o: Any, rule: str, context: Any, fn: Callable[[Any, Any], T]) -> T:
        key = (id(o), rule)
        hit = self.last.get(key)
        if hit is None or hit[0] is not o or hit[1] != context:
            hit = (o, context, fn(o, context))
        self.now[key] = hit
        return hit[2]

    def get_equal(self, o: Any, rule: str, context: Any, fn: Callable[[Any, Any], T]) -> T:
        """:meth:`get` keyed by the record's value: for a loose tensor's record, which a
        snapshot builds anew from its columns whenever it is read (a compact row's), so that
        its identity never repeats. NB: exact: records are immutable values, and a rule's
        findings are a function of the record and its context; the findings kept are the very
        objects of the last diagnosis, so what a caller keeps by their identity stays valid
        (a thousand standing mismatches are not judged, built and encoded again after every
        cell)."""
        key = (o, rule)
        hit = self.last_eq.get(key)
        if hit is None or hit[0] != context:
            hit = (context, fn(o, context))
        self.now_eq[key] = hit
        return hit[1]

    def same(self, kind: str, value: V) -> V:
        """``value``, or the equal one the last diagnosis used: contexts built from it then
        compare by identity (cheap), and equal contexts mean equal findings. A tuple of
        records also counts as equal where it differs only by records :meth:`alias` names."""
        old = self.shared.get(kind)
        if old is not None and (old == value or self._aliased(old, value)):
            value = old
        self.shared[kind] = value
        return value

    def alias(self, pairs: list[tuple[Any, tuple[Any, ...]]]) -> None:
        """For the next diagnosis: each record differs from its twins only in its grads'
        storages (a training step's new grads), which no rule reads (rules read parameters'
        storages only), so a twin's findings are the record's. NB: replaces any earlier
        pairs; every record is held, so their ids are never reused meanwhile."""
        self.aliases = {id(new): (new, twins) for new, twins in pairs}

    def _aliased(self, old: Any, value: Any) -> bool:
        aliases = self.aliases
        if (not aliases or type(old) is not tuple or type(value) is not tuple
                or len(old) != len(value)):
            return False
        for a, b in zip(old, value, strict=True):
            if a is not b:
                hit = aliases.get(id(b))
                if hit is None or hit[0] is not b or not any(t is a for t in hit[1]):
                    return False
        return True

    def keep(self, keys: list[tuple[int, str]]) -> None:
        """Carry these entries of the last diagnosis into this one, as :meth:`get` would.
        NB: at C speed: a thousand models' entries after every cell that rebinds a tensor."""
        hits: list[Any] = list(map(self.last.get, keys))  # NB: None where there is none
        self.now.update(compress(zip(keys, hits, strict=True), map(is_not, hits, repeat(None))))

    def roll(self) -> None:
        """Keep only what this diagnosis used."""
        self.last, self.now = self.now, {}
        self.last_eq, self.now_eq = self.now_eq, {}
        self.aliases = {}


def model_names(ms: Iterable[Model]) -> set[str]:
    """Every name (and alias) the models go by."""
    return {n for m in ms for n in (m.name, *m.aliases)}


def model_named(ms: Iterable[Model], names: Iterable[str]) -> list[Model]:
    """The models ``names`` refer to (by name or alias), each once, in ``ms`` order."""
    wanted = set(names)
    return [m for m in ms if m.name in wanted or wanted & set(m.aliases)]
