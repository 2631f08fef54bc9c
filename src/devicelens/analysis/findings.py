"""What a finding is, and the small helpers every rule shares (majority device, module tensors).

``Finding.fix`` is code for humans; ``Finding.action`` is the same fix as structured data for the
move engine, which never executes strings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ..inspect._tree import Ref
from ..inspect.records import ObjectRecord, TensorRecord

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



DEVICE_KINDS = ("module_split", "module_device", "trap_attribute", "trap_module",
                "optimizer_state", "dataparallel_device", "loose_device")
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
    """A module's parameters and buffers that decide where it is. NB: several rules ask for the
    same record's; computed once per record (kept with the record, so its id stays its own).
    The list is shared: read it, never change it."""
    hit = _MODULE_TENSORS.get(id(o))
    if hit is not None and hit[0] is o:
        return hit[1]
    if len(_MODULE_TENSORS) > 8192:
        _MODULE_TENSORS.clear()
    own = [t for t in o.tensors if t.role in ("parameter", "buffer") and _counts(t)]
    _MODULE_TENSORS[id(o)] = (o, own)
    return own


_MODULE_TENSORS: dict[int, tuple[ObjectRecord, list[TensorRecord]]] = {}


def q(s: str) -> str:
    return f'"{s}"'


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
    dtypes = {t.dtype for t in own if is_float(t.dtype)}
    device = devices.pop() if len(devices) == 1 else None
    if best.wrapper == "DataParallel" and best.device_ids:
        device = f"cuda:{best.device_ids[0]}"
    return Layout(device, dtypes.pop() if len(dtypes) == 1 else None, best.name, best.wrapper)


class Memo:
    """The findings of the last diagnosis, per record: a diagnosis after each cell recomputes a
    rule only for records that are new or whose context changed.

    NB: exact because a rule's findings are a function of the record and the context it is
    given (both compared here), and records are immutable; an entry holds its record, so the
    id keying it is never reused while it lives.
    """

    def __init__(self) -> None:
        self.last: dict[tuple[int, str], tuple[Any, Any, list[Finding]]] = {}
        self.now: dict[tuple[int, str], tuple[Any, Any, list[Finding]]] = {}

    def get(self, o: ObjectRecord, rule: str, context: Any,
            fn: Callable[[ObjectRecord, Any], list[Finding]]) -> list[Finding]:
        key = (id(o), rule)
        hit = self.last.get(key)
        if hit is None or hit[0] is not o or hit[1] != context:
            hit = (o, context, fn(o, context))
        self.now[key] = hit
        return hit[2]

    def roll(self) -> None:
        """Keep only what this diagnosis used."""
        self.last, self.now = self.now, {}
