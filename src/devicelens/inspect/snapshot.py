"""Namespace -> frozen :class:`Snapshot`: where every tensor, module and optimizer state lives.

Metadata only: device, dtype, shape, sizes and flags are read from tensor headers, so taking a
snapshot never reads data, never synchronises a GPU and never initialises CUDA. Walking user
objects is delegated to :mod:`._walk` and :mod:`._tree`, which never run user code.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

from ._walk import MAX_DEPTH, MAX_WIDTH, _Ctx, _object, _tensor_object, _Walker
from .records import (
    DeviceInfo,
    DeviceTotal,
    ModuleRecord,
    ObjectRecord,
    Snapshot,
    TensorRecord,
    device_key,
)

__all__ = ["MAX_DEPTH", "MAX_NODES", "MAX_WIDTH", "DeviceInfo", "DeviceTotal", "ModuleRecord",
           "ObjectRecord", "Snapshot", "TensorRecord", "available_devices", "candidates",
           "take_snapshot", "user_namespace"]

MAX_NODES = 500_000


def user_namespace() -> dict[str, Any]:
    ipy_mod = sys.modules.get("IPython")
    shell = ipy_mod.get_ipython() if ipy_mod is not None else None
    if shell is None:
        raise ValueError("no namespace given and not running inside IPython")
    return shell.user_ns  # type: ignore[no-any-return]


def candidates(namespace: dict[str, Any], names: list[str] | None) -> list[tuple[str, Any]]:
    """The names to look at: NB private names and IPython's ``In``/``Out`` history never."""
    if names is not None:
        return [(n, namespace[n]) for n in names if n in namespace]
    return [(k, v) for k, v in dict.items(namespace)
            if type(k) is str and not k.startswith("_") and k not in ("In", "Out")]


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

    items = candidates(namespace, names)
    # NB: modules first, so optimizers can name their parameters by module path.
    Module = torch.nn.Module
    order = sorted(items, key=lambda kv: 0 if issubclass(type(kv[1]), Module) else 1)
    ctx = _Ctx(torch, max_nodes)
    old_cache: dict[str, tuple[Any, ...]] = _loose_cache[0]
    new_cache: dict[str, tuple[Any, ...]] = {}
    records: dict[str, ObjectRecord] = {}
    totals = _Totals()
    skipped: list[str] = []
    truncated = False
    gc_was_on = gc.isenabled()
    gc.disable()  # NB: records are acyclic; collecting mid-walk only costs time (superlinear)
    try:
        with torch._C.DisableTorchFunctionSubclass():
            w = _Walker(ctx)
            for name, obj in order:
                if w.tensors or w.modules or w.truncated:
                    w = _Walker(ctx)
                try:
                    if issubclass(type(obj), ctx.Tensor):
                        rec = _reuse(old_cache, new_cache, ctx, name, obj)
                        if rec is None:
                            rec = _tensor_object(w, obj, name)
                            _remember(new_cache, name, obj, rec)
                    else:
                        rec = _object(w, obj, name)
                except Exception:  # NB: a hostile object costs its own row, never the snapshot
                    skipped.append(name)
                    continue
                truncated |= w.truncated
                if rec is not None:
                    records[name] = rec
                    totals.add(rec)
    finally:
        if gc_was_on:
            gc.enable()
    _loose_cache[0] = new_cache
    objects = tuple(records[n] for n, _ in items if n in records)
    return Snapshot(objects, totals.result(), available_devices(torch), truncated,
                    torch.__version__, tuple(skipped), recent_cells(namespace), records)


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


# --- reuse between snapshots -----------------------------------------------------------------

#: name -> (id, type, device, dtype, shape, id of base, record) of the last snapshot's loose
#: tensors. NB: replaced whole by every snapshot (no growth), and holds no tensor.
_loose_cache: list[dict[str, tuple[Any, ...]]] = [{}]


def _reuse(old: dict[str, tuple[Any, ...]], new: dict[str, tuple[Any, ...]], ctx: _Ctx,
           name: str, t: Any) -> ObjectRecord | None:
    """The last snapshot's record for ``name`` if it is provably still exact, else None.

    NB: exact because everything a loose tensor's record holds follows from what is compared:
    identity and type (flavor, layout), device, dtype, shape (sizes), the base (storage key) and
    requires_grad (only tensors without autograd are cached, so no grad or grad_fn to track).
    """
    entry = old.get(name)
    if entry is None or ctx.budget <= 0:
        return None
    if not (entry[0] == id(t) and entry[1] is type(t) and not t.requires_grad
            and entry[3] is t.dtype and entry[2] == t.device and entry[4] == t.shape):
        return None
    base = t._base
    if entry[5] != (None if base is None else id(base)):
        return None
    ctx.budget -= 1
    new[name] = entry
    rec: ObjectRecord = entry[6]
    return rec


def _remember(new: dict[str, tuple[Any, ...]], name: str, t: Any, rec: ObjectRecord | None) -> None:
    if rec is None or rec.tensors[0].flavor not in ("dense", "fake") or t.requires_grad:
        return  # NB: only plain tensors, whose every record field follows from the key
    base = t._base
    new[name] = (id(t), type(t), t.device, t.dtype, t.shape, None if base is None else id(base),
                 rec)


class _Totals:
    """Per-device objects, tensors and bytes, accumulated while each record is hot in cache.

    NB: each storage counts once, however many names reach it.
    """

    def __init__(self) -> None:
        self.objs: dict[str, int] = {}
        self.count: dict[str, int] = {}
        self.storages: dict[int, tuple[str, int]] = {}

    def add(self, o: ObjectRecord) -> None:
        objs, count, storages = self.objs, self.count, self.storages
        for dev in o.devices:
            objs[dev] = objs.get(dev, 0) + 1
        for t in o.tensors:
            if t.role == "opt_param":
                continue
            count[t.device] = count.get(t.device, 0) + 1
            prev = storages.get(t.storage)
            if prev is None or prev[1] < t.nbytes:
                storages[t.storage] = (t.device, t.nbytes)

    def result(self) -> tuple[DeviceTotal, ...]:
        nbytes: dict[str, int] = {}
        for dev, n in self.storages.values():
            nbytes[dev] = nbytes.get(dev, 0) + n
        return tuple(DeviceTotal(d, self.objs.get(d, 0), self.count[d], nbytes.get(d, 0))
                     for d in sorted(self.count, key=device_key))


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
