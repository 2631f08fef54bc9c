"""Walks one namespace value into records: tensors, modules (params, buffers, traps), containers.

The hot path of every snapshot: records are built with ``tuple.__new__``, steps are shared, and
exact ``torch.Tensor``/``Parameter`` headers are read in one C call. Reading user objects goes
through :mod:`._types`/:mod:`._tree` only; :mod:`._token` reads the same things, in the same
order, to tell whether a walk would give the same records again.
"""

from __future__ import annotations

from collections import OrderedDict
from itertools import compress, filterfalse, repeat
from math import prod
from operator import attrgetter, ne
from types import FunctionType, MethodType
from typing import Any

from . import _tree, _types
from ._tensor import _META as _META
from ._tensor import TensorReader
from ._tree import _ATTR_STEPS, Ref, attr_step
from .records import _DEVICE_NAMES as _DEVICES
from .records import _DTYPE_INFO as _DTYPES
from .records import ModuleRecord, TensorRecord, device_key, device_name, dtype_info

_new = tuple.__new__
_GRAD = attr_step("grad", "grad")
_PLAIN_STEPS = _ATTR_STEPS.setdefault("", {})  # NB: shared with attr_step's own cache
MAX_DEPTH = 6
MAX_WIDTH = 1000

#: what a plain ``nn.Module.__init__`` puts in a module's ``__dict__``: never walked as traps
STD_KEYS = frozenset({
    "training", "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_pre_hooks",
    "_backward_hooks", "_is_full_backward_hook", "_forward_hooks", "_forward_hooks_with_kwargs",
    "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
    "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks", "_modules"})


class Ctx:
    """What every walk of one snapshot shares: the tensor reader, the node budget and the
    parameter paths optimizers are labelled with."""

    def __init__(self, torch: Any, max_nodes: int) -> None:
        self.torch = torch
        self.reader = TensorReader(torch)
        self.budget = max_nodes
        self.exhausted = False
        self.truncated = False
        self.guarded = True  # may prove headers with guards (:mod:`._headers`): no cell runs
        # NB: the module parameters as the forest watch remembers them (a ``_tensor_list``
        # ``Tensors``), where it proved in this update that they still read so; else None
        self.proven: Any = None
        self.moved: dict[int, int] = {}  # NB: and the grads it found replaced (old id -> new)
        self.param_paths: dict[int, str] = {}
        # NB: parameter id -> (the parameter, its record, its grad's record or None), from a
        # module walk: an optimizer relabels these instead of reading the header again
        self.param_records: dict[int, tuple[Any, TensorRecord, TensorRecord | None]] = {}

    def spend(self) -> bool:
        self.budget -= 1
        if self.budget < 0:
            self.exhausted = True
            return False
        return True


class Walker:
    """Collects the records of one namespace name. NB: bounded by depth, width and the
    shared node budget; ``seen`` holds the objects on the current path (cycles)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.reader = ctx.reader
        self.tensors: list[TensorRecord] = []
        self.modules: list[ModuleRecord] = []
        self.truncated = False
        self.seen: set[int] = set()
        self.registered: set[int] = set()  # modules walked as registered submodules
        # every parameter path offered (for optimizers), where a caller asks for them
        self.regs: list[tuple[int, str]] | None = None

    def spend(self) -> bool:
        ctx = self.ctx
        ctx.budget -= 1
        if ctx.budget < 0:
            ctx.exhausted = self.truncated = True
            return False
        return True

    def tensor(self, t: Any, path: str, ref: Ref, role: str, owner: str) -> None:
        if not self.spend():
            return
        reader = self.reader
        m = read_meta(reader, t)
        self.tensors.append(reader.record(t, m, path, ref, role, owner))
        if m is None or role == "state":
            return
        g = reader.grad(t, m)
        if g is not None:
            self.tensors.append(reader.record(g, read_meta(reader, g), f"{path}.grad",
                                              (*ref, attr_step("grad", "grad")), "grad", path))

    # -- generic values
    def value(self, obj: Any, path: str, ref: Ref, depth: int, owner: str, role: str) -> None:
        what = _types.info(type(obj)).what
        if what == "tensor":
            self.tensor(obj, path, ref, role, owner)
        elif what == "module":
            # NB: a module in a plain list that is also a registered submodule (ai-toolkit's
            # LoRA modules, listed and ``add_module``d) is seen by ``Module.to()``: no trap
            self.module(obj, path, ref, 0, role != "tensor" and id(obj) not in self.registered)
        elif what and what != "optimizer":
            if depth < MAX_DEPTH:
                self.container(obj, what, path, ref, depth, owner, role)
            else:
                self.truncated = True

    def container(self, obj: Any, kind: str, path: str, ref: Ref, depth: int, owner: str,
                  role: str) -> None:
        if id(obj) in self.seen or not self.spend():
            return
        self.seen.add(id(obj))
        if kind != "dataclass" and _tree.container_len(obj, kind) > MAX_WIDTH:
            self.truncated = True
        for step, child in _tree.iter_children(obj, kind, MAX_WIDTH):
            self.value(child, _tree.display_step(path, step), (*ref, step), depth + 1, owner,
                       role)
        self.seen.discard(id(obj))

    # -- modules
    def module(self, m: Any, path: str, ref: Ref, depth: int, trapped: bool) -> None:
        mid = id(m)
        if mid in self.seen or not self.spend():
            return
        self.seen.add(mid)
        info = _types.info(type(m))
        d = _tree.script_view(_types.instance_dict(m) or {})
        start_t, start_m = len(self.tensors), len(self.modules)
        self._tables(d, path, ref, trapped)
        children = d.get("_modules")
        # NB: a leaf's table is an empty dict: no list to build (truth only of an exact dict)
        if type(children) is not dict or children:
            for name, child in _tree._table(children):
                if _types.info(type(child)).what == "module":
                    if not trapped:
                        self.registered.add(id(child))
                    self.module(child, f"{path}.{name}", (*ref, attr_step(name, info.hint)),
                                depth + 1, trapped)
        for name in list(filterfalse(STD_KEYS.__contains__, d)):  # NB: copied in one C call
            if type(name) is not str or name == _tree.SCRIPT:
                continue
            v = d[name]
            tp = type(v)
            if tp is int or tp is bool or tp is float or v is None:  # NB: never walked
                continue
            what = _types.info(tp).what
            if what == "tensor":
                self.tensor(v, f"{path}.{name}", (*ref, attr_step(name)),
                            "trapped" if trapped else "attribute", path)
            elif name[:1] != "_" and what and what not in ("module", "optimizer"):
                self.container(v, what, f"{path}.{name}", (*ref, attr_step(name)), 1, path,
                               "trapped")
        self.modules.insert(start_m, module_record(
            path, ref, info.name, self.tensors[start_t:], depth, trapped, placed_by(d)))
        self.seen.discard(mid)

    def _tables(self, d: dict[str, Any], path: str, ref: Ref, trapped: bool) -> None:
        """Parameters (remembered by path, for optimizers) and buffers. NB: the common case
        (exact ``Tensor``/``Parameter``, strided) is read and recorded inline, with one C call
        per tensor: this loop is most of a model's walk."""
        ctx, reader, out = self.ctx, self.reader, self.tensors
        paths, regs, read = ctx.param_paths, self.regs, ctx.param_records
        exact0, exact1, strided = reader.exact[0], reader.exact[1], reader.strided
        steps = _PLAIN_STEPS
        for table, role in (("_parameters", "parameter"), ("_buffers", "buffer")):
            entries = d.get(table)
            if not entries or not issubclass(type(entries), dict):
                continue
            if trapped:
                role = "trapped"
            for name, t in list(dict.items(entries)):  # NB: copied first (a running cell)
                if t is None or type(name) is not str:
                    continue
                tpath = f"{path}.{name}"
                tref = (*ref, steps.get(name) or attr_step(name))
                tp = type(t)
                if tp is not exact0 and tp is not exact1:
                    if _types.info(tp).what == "tensor":
                        if table == "_parameters":
                            paths.setdefault(id(t), tpath)
                            if regs is not None:
                                regs.append((id(t), tpath))
                        self.tensor(t, tpath, tref, role, path)
                    continue
                if table == "_parameters":
                    paths.setdefault(id(t), tpath)
                    if regs is not None:
                        regs.append((id(t), tpath))
                try:
                    m = _META(t)
                except RuntimeError:  # NB: a nested tensor: the general path
                    m = None
                if m is None or m[3] is not strided:
                    self.tensor(t, tpath, tref, role, path)
                    continue
                ctx.budget -= 1
                if ctx.budget < 0:
                    ctx.exhausted = self.truncated = True
                    continue
                rec = _dense(t, m, tpath, tref, role, path)
                out.append(rec)
                grec = None
                # NB: a leaf that requires grad (or a retain_grad()): only these keep a .grad
                if m[4] and (m[5] or t.retains_grad):
                    g = t.grad
                    if g is not None:
                        self._grad(g, tpath, tref)
                        grec = out[-1]
                if table == "_parameters":
                    read[id(t)] = (t, rec, grec)

    def exact_tensor(self, t: Any, path: str, ref: Ref, role: str, owner: str) -> None:
        """:meth:`tensor`, inline for an exact ``Tensor``/``Parameter`` that is strided."""
        reader = self.reader
        tp = type(t)
        m = None
        if tp is reader.exact[0] or tp is reader.exact[1]:
            try:
                m = _META(t)
            except RuntimeError:  # NB: a nested tensor: the general path
                m = None
        if m is None or m[3] is not reader.strided:
            self.tensor(t, path, ref, role, owner)
            return
        ctx = self.ctx
        ctx.budget -= 1
        if ctx.budget < 0:
            ctx.exhausted = self.truncated = True
            return
        self.tensors.append(_dense(t, m, path, ref, role, owner))
        if role != "state" and m[4] and (m[5] or t.retains_grad):
            g = t.grad
            if g is not None:
                self._grad(g, path, ref)

    def relabel(self, hit: tuple[Any, TensorRecord, TensorRecord | None], path: str, ref: Ref,
                role: str, owner: str) -> None:
        """:meth:`exact_tensor` for a parameter a module walk of this snapshot already read
        (``hit``, from :attr:`Ctx.param_records`): its records under another path."""
        ctx = self.ctx
        ctx.budget -= 1
        if ctx.budget < 0:
            ctx.exhausted = self.truncated = True
            return
        rec, grec = hit[1], hit[2]
        self.tensors.append(_new(TensorRecord, (path, ref, role, owner, *rec[4:])))
        if grec is not None:
            self.tensors.append(_new(TensorRecord, (f"{path}.grad", (*ref, _GRAD), "grad", path,
                                                    *grec[4:])))

    def _grad(self, g: Any, path: str, ref: Ref) -> None:
        reader = self.reader
        gpath, gref = f"{path}.grad", (*ref, _GRAD)
        if type(g) is reader.exact[0]:
            gm = _META(g)
            if gm[3] is reader.strided:
                self.tensors.append(_dense(g, gm, gpath, gref, "grad", path))
                return
        self.tensors.append(reader.record(g, read_meta(reader, g), gpath, gref, "grad", path))


def _dense(t: Any, m: tuple[Any, ...], path: str, ref: Ref, role: str,
           owner: str) -> TensorRecord:
    """The record of an exact ``Tensor``/``Parameter`` whose header ``m`` (from ``_META``, its
    base not yet an id) says strided."""
    head = _HEADS.get(m[:3]) or header(m[:3])
    base = m[6]
    return _new(TensorRecord, (path, ref, role, owner, head[0], head[1], head[2], head[3],
                               head[4], m[4], m[5], "strided", head[5],
                               id(t) if base is None else id(base)))


#: (device, dtype, shape) -> what they decide of a dense record: device name, dtype name, the
#: shared shape, numel, bytes and flavour. NB: one lookup instead of four (and a product) per
#: tensor: a model repeats a few of them; equal shapes also share one ``torch.Size``, so a
#: snapshot keeps fewer objects for the garbage collector to scan
_HEADS: dict[tuple[Any, Any, Any], tuple[str, str, Any, int, int, str]] = {}


def header(key: tuple[Any, Any, Any]) -> tuple[str, str, Any, int, int, str]:
    """:data:`_HEADS`'s entry for ``key`` (a header's first three fields), made on first use."""
    if len(_HEADS) > 10_000:
        _HEADS.clear()
    dtname, itemsize, quantized = _DTYPES.get(key[1]) or dtype_info(key[1])
    shape = key[2]
    numel = prod(shape)
    got = _HEADS[key] = (_DEVICES.get(key[0]) or device_name(key[0]), dtname, shape, numel,
                         numel * itemsize, "quantized" if quantized else "dense")
    return got


def read_meta(reader: TensorReader, t: Any) -> Any:
    try:
        return reader.meta(t)
    except Exception:  # NB: exotic tensors may refuse any read: an opaque row
        return None


def placed_by(d: dict[str, Any]) -> str:
    """What places a module's inputs (:attr:`ModuleRecord.hf_hook`): "accelerate" where it has
    accelerate's ``_hf_hook``, "hook" where a forward pre-hook of its is not torch's own
    (``weight_norm``'s and pruning's are: they recompute a weight, they move nothing),
    "autocast" where its own ``forward`` runs under ``torch.autocast`` (accelerate's
    ``prepare`` under mixed precision binds such a ``forward`` on the model: its inputs' float
    dtype does not meet its weights'), '' otherwise. NB: the hook table of ``d``, the hooks'
    ``__module__``s and a bound ``forward``'s wrappers only; an empty table and no bound
    ``forward`` (nearly every module) cost two lookups."""
    if "_hf_hook" in d:
        return "accelerate"
    hooks: Any = d.get("_forward_pre_hooks")
    if issubclass(type(hooks), dict) and dict.__len__(hooks):  # NB: no user __bool__
        for h in list(dict.values(hooks)):
            where = h.__module__ if type(h) is FunctionType else type(h).__module__
            if not (isinstance(where, str) and where.startswith("torch.")):
                return "hook"  # NB: where the inputs go decides more than their dtype
    bound = d.get("forward")
    return "autocast" if bound is not None and under_autocast(bound) else ""


def under_autocast(fn: Any) -> bool:
    """``fn`` is, or wraps, the function ``torch.autocast(...)`` makes of what it decorates:
    followed through a bound method's ``__func__``, ``functools.wraps``'s ``__wrapped__`` and
    the functions a wrapper closes over (accelerate's ``convert_outputs_to_fp32``). NB: reads
    ``__dict__``s, closure cells and code objects only; nothing is called."""
    todo, seen = [fn], 0
    while todo and seen < 16:
        fn = todo.pop(0)
        seen += 1
        if type(fn) is MethodType:
            fn = fn.__func__
        if type(fn) is FunctionType:
            code = fn.__code__
            if code.co_name == "decorate_autocast" and code.co_filename.endswith(
                    "autocast_mode.py"):
                return True
            for cell in fn.__closure__ or ():
                try:
                    inner = cell.cell_contents
                except ValueError:  # NB: an empty cell
                    continue
                if type(inner) is FunctionType or type(inner) is MethodType:
                    todo.append(inner)
        d = _types.instance_dict(fn)
        inner = dict.get(d, "__wrapped__") if type(d) is dict else None
        if inner is not None:
            todo.append(inner)
    return False


_PRE_HOOKS = "_forward_pre_hooks"


def pre_hooks_token(dicts: list[dict[str, Any]], pins: list[Any]) -> tuple[int, ...]:
    """The forward pre-hooks of the modules whose ``__dict__``s are ``dicts``, by identity:
    what :func:`placed_by` reads. Registering one changes no module's ``__dict__``, so the
    tokens and watches that reuse a module's record compare these too. NB: most tables are
    empty, found so in C passes; ``pins`` keeps the hooks alive (their ids stay theirs); only
    an exact ``OrderedDict``'s truth is asked (anything else is taken by identity)."""
    raw = list(map(dict.get, dicts, repeat(_PRE_HOOKS)))
    if list(map(type, raw)).count(OrderedDict) == len(raw):
        tables = list(filter(None, raw))
    else:
        tables = [t for t in raw if t is not None and (type(t) is not OrderedDict or t)]
    out: list[int] = []
    for t in tables:
        if type(t) is not OrderedDict:
            out.append(id(t))
            pins.append(t)
            continue
        hooks = list(dict.values(t))
        pins.append(hooks)
        out += (id(t), len(hooks), *map(id, hooks))
    return tuple(out)


def module_record(path: str, ref: Ref, type_name: str, tensors: list[TensorRecord], depth: int,
                  trapped: bool, hf_hook: str) -> ModuleRecord:
    """A module's aggregate over its subtree's tensors (grads aside): one loop, no genexprs;
    a big subtree (a model's root) column by column instead."""
    if len(tensors) > 32:
        return _big_module_record(path, ref, type_name, tensors, depth, trapped, hf_hook)
    devices: set[str] = set()
    dtypes: dict[str, None] = {}
    storages: dict[int, int] = {}
    n = 0
    for t in tensors:
        if t[2] == "grad":  # NB: role, by index: this loop runs once per tensor per ancestor
            continue
        n += 1
        devices.add(t[4])
        dt = t[5]
        if dt not in dtypes and dt.startswith(_FLOATS):
            dtypes[dt] = None
        key, nbytes = t[13], t[8]
        if storages.get(key, -1) < nbytes:
            storages[key] = nbytes
    devs = tuple(devices) if len(devices) < 2 else tuple(sorted(devices, key=device_key))
    return _new(ModuleRecord, (path, ref, type_name, _shared(devs), _shared(tuple(dtypes)), n,
                               sum(storages.values()), depth, trapped, hf_hook))


def _big_module_record(path: str, ref: Ref, type_name: str, tensors: list[TensorRecord],
                       depth: int, trapped: bool, hf_hook: str) -> ModuleRecord:
    """:func:`module_record` at C speed: the same fields, read as columns."""
    if "grad" in map(_ROLE, tensors):
        tensors = list(compress(tensors, map(ne, map(_ROLE, tensors), repeat("grad"))))
    devices = set(map(_DEVICE, tensors))
    dtypes = tuple(d for d in dict.fromkeys(map(_DTYPE, tensors)) if d.startswith(_FLOATS))
    devs = tuple(devices) if len(devices) < 2 else tuple(sorted(devices, key=device_key))
    return _new(ModuleRecord, (path, ref, type_name, _shared(devs), _shared(dtypes),
                               len(tensors), dedup_bytes(tensors), depth, trapped, hf_hook))


_ROLE, _DEVICE, _DTYPE = attrgetter("role"), attrgetter("device"), attrgetter("dtype")
_SHARED: dict[tuple[str, ...], tuple[str, ...]] = {}


def _shared(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names``, or the equal tuple already kept: every submodule of a model says ``("cpu",)``
    and ``("float32",)``, and each object a snapshot keeps is one more for gc to scan."""
    got = _SHARED.get(names)
    if got is None:
        if len(_SHARED) > 10_000:
            _SHARED.clear()
        got = _SHARED[names] = names
    return got


_FLOATS = ("float", "bfloat", "complex")


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat", "complex"))


def uniq(items: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def devices_of(items: Any) -> tuple[str, ...]:
    return tuple(sorted(set(items), key=device_key))


def dedup_bytes(tensors: list[TensorRecord] | tuple[TensorRecord, ...]) -> int:
    """Bytes of the distinct storages (each its largest extent)."""
    storages = list(map(_STORAGE, tensors))
    if len(set(storages)) == len(storages):  # NB: the usual case, at C speed
        return sum(map(_NBYTES, tensors))
    seen: dict[int, int] = {}
    for t in tensors:
        if seen.get(t.storage, -1) < t.nbytes:
            seen[t.storage] = t.nbytes
    return sum(seen.values())


_STORAGE, _NBYTES = attrgetter("storage"), attrgetter("nbytes")
