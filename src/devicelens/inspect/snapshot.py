"""Namespace -> frozen :class:`Snapshot`: where every tensor, module and optimizer state lives.

Metadata only: device, dtype, shape, sizes and flags are read from tensor headers, so taking a
snapshot never reads data, never synchronises a GPU and never initialises CUDA. Names bound
directly to a plain tensor (the bulk of a big namespace) are read in one pass into compact rows;
everything else is walked by :mod:`._objects`, which never runs user code.
"""

from __future__ import annotations

import sys
from itertools import compress
from operator import attrgetter
from typing import Any

from ._class_sources import called_sources, class_sources, library_sources
from ._columns import HIDDEN, shown
from ._gc import gc_paused
from ._objects import walk_object
from ._types import info
from ._walk import MAX_DEPTH, MAX_WIDTH, Ctx
from .records import (
    FULL,
    DeviceInfo,
    DeviceTotal,
    Loose,
    ModuleRecord,
    ObjectRecord,
    Snapshot,
    TensorRecord,
    id_column,
)

__all__ = ["MAX_DEPTH", "MAX_NODES", "MAX_WIDTH", "DeviceInfo", "DeviceTotal", "ModuleRecord",
           "ObjectRecord", "Snapshot", "TensorRecord", "available_devices", "candidates",
           "take_snapshot", "user_namespace"]

MAX_NODES = 2_000_000  # tensors and walked nodes in one snapshot


def user_namespace() -> dict[str, Any]:
    ipy_mod = sys.modules.get("IPython")
    shell = ipy_mod.get_ipython() if ipy_mod is not None else None
    if shell is None:
        raise ValueError("no namespace given and not running inside IPython")
    return shell.user_ns  # type: ignore[no-any-return]


def candidates(namespace: dict[str, Any], names: list[str] | None) -> list[tuple[str, Any]]:
    """The names to look at: NB private names and IPython's ``In``/``Out`` history never."""
    if names is not None:
        return [(n, dict.get(namespace, n)) for n in names if n in namespace]
    return [(k, v) for k, v in dict.items(namespace)
            if type(k) is str and not k.startswith("_") and k not in HIDDEN]


def take_snapshot(namespace: dict[str, Any] | None = None, *, names: list[str] | None = None,
                  max_nodes: int = MAX_NODES) -> Snapshot:
    """Snapshot ``namespace`` (default: the IPython user namespace), optionally only ``names``.

    Never raises for anything found in the namespace: a name whose walk fails is listed in
    ``Snapshot.skipped``. Raises ``ValueError`` when there is no namespace to look at and
    ``ModuleNotFoundError`` when torch is not importable.
    """
    if namespace is None:
        namespace = user_namespace()
    import torch

    with gc_paused(), torch._C.DisableTorchFunction():  # NB: records are acyclic
        public = names is None
        # NB: a caller on another thread than the cells passes a copy (namespace_copy)
        items = dict.items(namespace) if public else candidates(namespace, names)
        loose, ts, rest = read_loose(torch, namespace, items, max_nodes, public)
        ctx = Ctx(torch, max_nodes - len(ts))
        ctx.truncated = len(ts) == max_nodes
        walked, skipped = walk_rest(ctx, rest)
    loose.ids = id_column(ts)
    kinds, full = assemble(len(ts) + len(rest), rest, walked)
    # NB: the library classes' sources after the cells (:mod:`._class_sources`)
    recent = recent_cells(namespace)
    cells = recent + library_sources(class_sources(namespace, full),
                                     called_sources(namespace, recent))
    return Snapshot(kinds, full, loose, available_devices(torch), ctx.exhausted or ctx.truncated,
                    torch.__version__, tuple(skipped), cells=cells)


MAX_CELLS = 20


def recent_cells(namespace: dict[str, Any]) -> tuple[str, ...]:
    """The last cells the user ran (IPython's ``In``), oldest first: text to parse, never run.

    NB: read with the base type's methods; anything but a list of strings reads as no history.
    """
    history = dict.get(namespace, "In")
    if type(history) is not list:
        return ()
    return tuple(s for s in list.__getitem__(history, slice(-MAX_CELLS, None))
                 if type(s) is str and s)


def read_loose(torch: Any, namespace: dict[str, Any], items: Any, budget: int,
               public: bool) -> tuple[Loose, list[Any], list[tuple[int, str, Any]]]:
    """A compact row for each name bound to a plain tensor (and the tensor, for its id), and a
    ``rest`` entry (position, name, value) for every other name, to walk. ``public``: skip
    private names and ``In``/``Out``.

    NB: only exactly ``torch.Tensor``, strided, not a view and without autograd gets a compact
    row (its getters are torch's C code). One pass picks the rows; their shapes, dtypes and
    devices are then read column by column, at C speed. A nested tensor, whose ``shape`` raises,
    is walked: where one is found, the pass runs again, reading each row's shape as it goes.
    """
    split = _split_shown(torch, namespace) if public else None
    if split is not None:
        names, ts, rest = split
    else:
        names, ts, rest, shapes = _split(torch, items, public, careful=False)
    try:
        shapes = list(map(_SHAPE, ts))
    except RuntimeError:
        names, ts, rest, shapes = _split(torch, items, public, careful=True)
    interned: dict[Any, Any] = {}
    loose = Loose(names, _devices(torch, ts), list(map(_DTYPE, ts)),
                  list(map(interned.setdefault, shapes, shapes)))
    if len(ts) > budget:
        _cut(loose, ts, rest, budget)
    return loose, ts, rest


_SHAPE, _DTYPE, _DEVICE, _IS_CPU = (attrgetter(n) for n in ("shape", "dtype", "device", "is_cpu"))


def _split_shown(torch: Any, namespace: dict[str, Any]
                 ) -> tuple[list[str], list[Any], list[tuple[int, str, Any]]] | None:
    """:func:`_split` of the shown names (``public``, not ``careful``); None where a tensor's
    getter raised (the caller then splits one by one).

    NB: the names are filtered at C speed by :func:`._columns.shown` (as the panel's updates
    filter them), and the one pass is a comprehension that only flags each value: paired with
    the loop of :func:`_split`, 0.73-0.81x its time at 1k-100k tensors (a first snapshot:
    0.85-0.90x). The comprehension is the loop's test: ``v`` is a compact row exactly where the
    loop would append it.
    """
    keys, vals = list(dict.keys(namespace)), list(dict.values(namespace))
    public = shown(keys)
    if False in public:  # NB: a kernel's namespace always holds private names
        keys, vals = list(compress(keys, public)), list(compress(vals, public))
    Tensor, strided = torch.Tensor, torch.strided
    try:
        compact = [type(v) is Tensor and v.layout is strided and v._base is None
                   and v.requires_grad is False for v in vals]
    except RuntimeError:
        return None
    names, ts = list(compress(keys, compact)), list(compress(vals, compact))
    rest: list[tuple[int, str, Any]] = []
    i = -1
    for _ in range(len(keys) - len(names)):  # NB: every name left is shown: its index is its
        i = compact.index(False, i + 1)      # position; found at C speed, one jump each
        rest.append((i, keys[i], vals[i]))
    return names, ts, rest


def _split(torch: Any, items: Any, public: bool, careful: bool
           ) -> tuple[list[str], list[Any], list[tuple[int, str, Any]], list[Any]]:
    """The compact rows' names and tensors, the ``rest`` entries, and (``careful``) the rows'
    shapes, read one by one so that a nested tensor, whose ``shape`` raises, goes to ``rest``."""
    Tensor, strided = torch.Tensor, torch.strided
    names: list[str] = []
    ts: list[Any] = []
    shapes: list[Any] = []
    add_name, add_t, add_shape = names.append, ts.append, shapes.append
    rest: list[tuple[int, str, Any]] = []
    for k, v in items:
        if public and (type(k) is not str or k[:1] == "_" or k in HIDDEN):
            continue
        if type(v) is Tensor:
            try:
                if v.layout is strided and v._base is None and v.requires_grad is False:
                    if careful:
                        add_shape(v.shape)  # NB: first: it raises before any other append
                    add_name(k)
                    add_t(v)
                    continue
            except RuntimeError:
                pass
        rest.append((len(ts) + len(rest), k, v))
    return names, ts, rest, shapes


def _devices(torch: Any, ts: list[Any]) -> list[Any]:
    """Each tensor's device, one shared object per device (a retained ``torch.device`` per
    tensor would cost more memory than the rest of its row). NB: on the CPU without creating
    one: ``is_cpu`` costs less than ``device``."""
    cpu = torch.device("cpu")
    n = len(ts)
    if list(map(_IS_CPU, ts)).count(True) == n:
        return [cpu] * n
    devs = list(map(_DEVICE, ts))
    return list(map({cpu: cpu}.setdefault, devs, devs))


def _cut(loose: Loose, ts: list[Any], rest: list[tuple[int, str, Any]], budget: int) -> None:
    """Keep the first ``budget`` compact rows (the snapshot is then marked truncated)."""
    for col in (loose.names, loose.devices, loose.dtypes, loose.shapes, ts):
        del col[budget:]
    for j, (pos, name, obj) in enumerate(rest):
        before = pos - j  # NB: how many compact rows come before it
        if before > budget:
            rest[j] = (pos - (before - budget), name, obj)


def walk_rest(ctx: Ctx, rest: list[tuple[int, str, Any]]) -> tuple[dict[int, ObjectRecord],
                                                                   list[str]]:
    """Walk every name without a compact row: position -> record, and the names whose walk
    failed. NB: modules first, so that optimizers can name their parameters by module path."""
    walked: dict[int, ObjectRecord] = {}
    skipped: list[str] = []
    for pos, name, obj in sorted(rest, key=lambda e: info(type(e[2])).what != "module"):
        try:
            rec, truncated = walk_object(ctx, name, obj)
        except Exception:  # NB: a hostile object costs its own row, never the snapshot
            skipped.append(name)
            continue
        ctx.truncated |= truncated
        if rec is not None:
            walked[pos] = rec
    return walked, skipped


def assemble(n: int, rest: list[tuple[int, str, Any]],
             walked: dict[int, ObjectRecord]) -> tuple[bytes, list[ObjectRecord]]:
    """Kinds (position by position) and walked records (in order), dropping the names that
    hold no tensors."""
    if not rest:
        return bytes(n), []
    kinds = bytearray(n)
    drop = []
    for pos, _name, _obj in rest:
        if pos in walked:
            kinds[pos] = FULL
        else:
            drop.append(pos)
    full = [walked[p] for p in sorted(walked)]
    for pos in reversed(drop):
        del kinds[pos]
    return bytes(kinds), full


def available_devices(torch: Any) -> tuple[DeviceInfo, ...]:
    """Devices this process can use. NB: free memory only where CUDA is already initialised."""
    out = [DeviceInfo("cpu", "cpu", None, None)]
    try:
        if torch.cuda.is_initialized():
            for i in range(torch.cuda.device_count()):
                free, total = torch.cuda.mem_get_info(i)
                out.append(DeviceInfo(f"cuda:{i}", "cuda", int(free), int(total)))
        else:
            acc = getattr(torch, "accelerator", None)
            if acc is not None and acc.is_available():
                kind = acc.current_accelerator().type
                out += [DeviceInfo(f"{kind}:{i}", kind, None, None)
                        for i in range(acc.device_count())]
            elif torch.backends.mps.is_available():
                out.append(DeviceInfo("mps", "mps", None, None))
    except Exception:  # NB: a broken driver must not break the snapshot
        pass
    out.append(DeviceInfo("meta", "meta", None, None))
    return tuple(out)
