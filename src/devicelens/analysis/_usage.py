"""Which model each name is used with, read from the user's recent cells (IPython's ``In``).

Parsed with :mod:`ast`, never executed. A name passed to ``model(...)`` is used with ``model``;
a name combined with a model's output (``loss_fn(model(x), y)``, ``out - y``) is used with that
model; ``h = a(x)`` makes ``h`` come from ``a``. NB: the newest cell that mentions a name decides.
Also read: names used under ``autocast`` (their dtype may differ) and the arguments PyTorch
wants on the CPU (``pack_padded_sequence`` lengths, through the user's own ``forward``).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..inspect._class_sources import MARK, parse_cell
from ._construction import (
    BuiltOnly,
    attr_refs,
    class_refs,
    construction_only,
    named_elsewhere,
    self_reads,
)

#: module methods that compute nothing: their arguments are not inputs of the model
_NOT_COMPUTE = frozenset((
    "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "type", "to_empty", "train",
    "eval", "parameters", "named_parameters", "buffers", "named_buffers", "modules",
    "named_modules", "children", "named_children", "state_dict", "load_state_dict",
    "zero_grad", "requires_grad_", "apply", "register_buffer", "register_parameter",
    "register_module", "add_module", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "get_submodule", "get_parameter", "get_buffer",
))
#: methods of any object that copy their argument into the receiver, onto the receiver's device
#: (``optimizer.load_state_dict(ckpt["optimizer"])`` casts the state to its parameters'):
#: the argument is no operand of the receiver
_COPY_INTO = frozenset(("load_state_dict", "copy_"))
_OPERATORS = (ast.BinOp, ast.Compare, ast.BoolOp)
#: (position, keyword) of arguments PyTorch requires on the CPU, by function name
_CPU_ARGS: dict[str, tuple[tuple[int, str], ...]] = {
    "pack_padded_sequence": ((1, "lengths"),),
}
MAX_CELLS = 20
MAX_CELL_CHARS = 50_000


class _Cell(NamedTuple):
    uses: dict[str, tuple[set[str], set[str]]]  # name -> (passed to, combined with)
    amp: set[str]  # names used with a model under autocast
    moved: frozenset[str] = frozenset()  # names every use of which moves them to a device
    handed: frozenset[str] = frozenset()  # names only handed to an object built with a model


class _Shared:
    """What one cell leaves to the next: origins, and functions with CPU-only arguments."""

    def __init__(self, types: Mapping[str, str]) -> None:
        self.types = types  # module name -> its class name
        self.module_classes = frozenset(c for c in types.values() if c)
        self.env: dict[str, frozenset[str]] = {}
        self.cpu_args: dict[str, tuple[tuple[int, str], ...]] = dict(_CPU_ARGS)
        self.cpu_paths: set[str] = set()
        #: a function the cells define -> its parameters, and the models each is used with in
        #: its body (passed to, combined with): ``train_step(batch, class_weights)`` ties the
        #: caller's names through the helper's own (``w``)
        self.helpers: dict[str, tuple[tuple[str, ...], dict[str, tuple[frozenset[str],
                                                                       frozenset[str]]]]] = {}
        #: a class the cells define -> its attributes its own code moves where it reads them
        #: (``self.weights.to(x)``, ``self.pos_embed.to(x.device)``)
        self.moved_at_use: dict[str, frozenset[str]] = {}
        #: a class the cells define -> its attributes its own code casts to a dtype where it
        #: reads them (``self.running_mean.float()``): a dtype's cast, no move
        self.cast_at_use: dict[str, frozenset[str]] = {}
        #: a class the cells define -> its plain containers its own code reads by the device of
        #: what it is given (``self.cos_cached[x.device.index]``): one tensor kept per device
        self.picked_by_device: dict[str, frozenset[str]] = {}
        #: a class the cells define -> its attributes its own code reads an item at a time
        #: (``self.grid_size[0]``: a 0-dim tensor of a 1-D one), or only their header
        self.read_as_items: dict[str, frozenset[str]] = {}
        #: a class the cells define -> the attributes its ``forward`` assigns (remakes at each
        #: call: ``self.pos_index = torch.LongTensor(...)``)
        self.remade_at_call: dict[str, frozenset[str]] = {}
        #: a class the cells define -> the ``self.<attr>`` its own methods read, or None where
        #: that cannot be told from its text (a base class the cells do not define, a
        #: ``getattr(self, ...)``)
        self.read_attrs: dict[str, frozenset[str] | None] = {}
        #: a class the cells define -> the methods only its construction runs (its own and
        #: its bases'), each with what it reads of ``self`` and the class that defines it: left
        #: out of ``read_attrs`` unless some other code names the method
        self.built_only: dict[str, dict[str, tuple[frozenset[str] | None, str]]] = {}
        #: a class the cells define -> the names its own body reads as attributes, and every
        #: source's (the library's once, each cell's): who else names a method
        self.own_refs: dict[str, Counter[str]] = {}
        self.attr_refs: Counter[str] = Counter()
        #: a class the cells define -> the ``self.<attr>`` its ``forward`` reads, itself or
        #: through the methods of its own it calls; None where that cannot be told
        self.forward_reads: dict[str, frozenset[str] | None] = {}
        #: a class the cells define -> the submodules whose dtype its own code casts what it
        #: hands them to (``output.to(self.summary.weight.dtype)``)
        self.casts_inputs: dict[str, frozenset[str]] = {}
        #: a class the cells define -> the attributes it accumulates into in place and reads
        #: only in arithmetic (torchmetrics' float64 sums beside float32 weights)
        self.accumulated: dict[str, frozenset[str]] = {}
        #: a function the cells define -> its parameters it only uses moved to a device
        #: (``for b in loader: net(b["img"].to(DEVICE))``), and its parameters in order
        self.moves_params: dict[str, frozenset[str]] = {}
        self.helper_params: dict[str, tuple[str, ...]] = {}
        #: (a class the cells define, a method of it) -> its parameters, and those its body
        #: moves to a device (``init_state(frames)``: ``frames.to(device)`` unless offloaded)
        self.method_moves: dict[tuple[str, str], tuple[tuple[str, ...], frozenset[str]]] = {}
        #: a class the cells define -> its ``forward``'s parameters (after ``self``), and those
        #: its body moves to a device (ChebGraphConv's ``gso = gso.to(x.device)``)
        self.forward_moves: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {}


#: what reading the library's sources left in a fresh ``_Shared``, by (sources, module types):
#: the same sources come back at every new cell, and reading a large class costs milliseconds
_LIBRARY: dict[tuple[object, ...], dict[str, Any]] = {}
_LIBRARY_MAX = 8
_READ_BY_LIBRARY = ("env", "cpu_args", "cpu_paths", "helpers", "moved_at_use", "cast_at_use",
                    "picked_by_device", "read_as_items", "remade_at_call",
                    "read_attrs", "built_only", "own_refs", "attr_refs", "forward_reads",
                    "casts_inputs", "accumulated", "moves_params", "helper_params",
                    "method_moves", "forward_moves")


def _with_library(library: tuple[str, ...], types: dict[str, str]) -> _Shared:
    """A fresh ``_Shared`` holding what the library classes' and functions' sources
    (:mod:`..inspect._class_sources`) define, as a cell defines them, before the cells. NB: each
    source is no cell, and is read twice, so that each class sees the others (which submodule
    moves what it is handed), whatever their order; what that leaves is kept per (sources,
    types) and copied into each new ``_Shared`` (its maps hold only immutable values)."""
    shared = _Shared(types)
    if not library:
        return shared
    key = (library, tuple(sorted(types.items())))
    saved = _LIBRARY.get(key)
    if saved is None:
        for i, src in enumerate(library + library):
            tree = _parse(src)
            if tree is not None and i < len(library):
                shared.attr_refs.update(_attr_refs(src))
            if tree is not None:
                _Visitor(shared).body([s for s in tree.body if isinstance(
                    s, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)])
        saved = {k: getattr(shared, k) for k in _READ_BY_LIBRARY}
        if len(_LIBRARY) >= _LIBRARY_MAX:
            _LIBRARY.clear()
        _LIBRARY[key] = {k: type(v)(v) for k, v in saved.items()}
        return shared
    for k, v in saved.items():
        setattr(shared, k, type(v)(v))
    return shared


class Usage:
    """Which modules each name was last used with (empty when unknown).

    ``history``: there were cells to read; then a tensor no cell uses with a model is not (yet)
    in the wrong place. ``cpu_paths``: paths (``batch['lengths']``) PyTorch wants on the CPU.
    """

    def __init__(self, cells: Sequence[str], modules: Mapping[str, str] | Iterable[str]) -> None:
        types = dict(modules) if isinstance(modules, Mapping) else dict.fromkeys(modules, "")
        self._cells: list[_Cell] = []
        library = [c for c in cells if c.startswith(MARK)]
        shared = _with_library(tuple(library), types)
        recent = [c for c in list(cells)[-MAX_CELLS - len(library):]
                  if c.strip() and not c.startswith(MARK)][-MAX_CELLS:]
        for src in recent:
            tree = _parse(src)
            v = _Visitor(shared)
            if tree is not None:
                shared.attr_refs.update(_attr_refs(src))
                v.body(tree.body)
            uses: dict[str, tuple[set[str], set[str]]] = {}
            for name, partners, direct in v.events:
                uses.setdefault(name, (set(), set()))[0 if direct else 1].update(partners)
            self._cells.append(_Cell(uses, v.amp, frozenset(v.moved_only()),
                                     frozenset(v.handed - v.met)))
        self.history = bool(recent)
        self.origins = shared.env
        self._moved = {k: v for k, v in shared.moved_at_use.items() if v}
        self._cast = {k: v for k, v in shared.cast_at_use.items() if v}
        self._picked = {k: v for k, v in shared.picked_by_device.items() if v}
        self._items = {k: v for k, v in shared.read_as_items.items() if v}
        self._remade = {k: v for k, v in shared.remade_at_call.items() if v}
        self._read = _named_back(shared)
        self._forward_reads = shared.forward_reads
        self._casts = {k: v for k, v in shared.casts_inputs.items() if v}
        self._accumulated = {k: v for k, v in shared.accumulated.items() if v}
        self.cpu_paths = frozenset(shared.cpu_paths)
        self._users: list[dict[str, set[str]]] | None = None
        self._used: set[str] = set()  # every module some cell uses something with
        self._key: tuple[object, ...] | None = None

    def _newest(self, name: str) -> _Cell | None:
        for cell in reversed(self._cells):
            got = cell.uses.get(name)
            if got and (got[0] - {name} or got[1] - {name}):
                return cell
        return None

    def tiers(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """(modules ``name`` is passed to, modules it is otherwise combined with), from the
        newest cell that uses it."""
        cell = self._newest(name)
        if cell is None:
            return frozenset(), frozenset()
        direct, other = cell.uses[name]
        return frozenset(direct - {name}), frozenset(other - {name})

    def moved_at_each_use(self, name: str) -> bool:
        """The newest cell that uses ``name`` with a model moves it to a device at every use
        (``net(x.to(device))``): where it is stored fails nothing."""
        cell = self._newest(name)
        return cell is not None and name in cell.moved

    def handed_only(self, name: str) -> bool:
        """The newest cell that uses ``name`` with a model only hands it to an object built
        with the model (``Trainer(model=model, eval_dataset=ds)``): that object's code, not the
        cell, decides where it meets the model."""
        cell = self._newest(name)
        return cell is not None and name in cell.handed

    def amp(self, name: str) -> bool:
        """The newest cell that uses ``name`` uses it under ``autocast``."""
        cell = self._newest(name)
        return cell is not None and name in cell.amp

    def inputs(self, module: str) -> frozenset[str]:
        """The names used with ``module`` in the newest cell that uses it."""
        if self._users is None:  # NB: per cell, module -> the names used with it (built once)
            self._users = []
            for cell in self._cells:
                users: dict[str, set[str]] = {}
                for n, (d, o) in cell.uses.items():
                    for m in d | o:
                        users.setdefault(m, set()).add(n)
                self._users.append(users)
                self._used.update(users)
        if module not in self._used:
            return frozenset()
        for users in reversed(self._users):
            got = users.get(module, set()) - {module}
            if got:
                return frozenset(got)
        return frozenset()

    def key(self) -> tuple[object, ...]:
        """What every answer of this Usage is a function of: equal keys, equal answers.
        NB: a cell that uses nothing with a model (``pass``) changes no answer, nor the key."""
        if self._key is None:
            used = tuple((c.uses, c.amp, c.moved, c.handed) for c in self._cells if c.uses)
            # NB: a name computed from no model (``x = x.double()``) reads as one never assigned
            # NB: and what the classes the cells define do (a class redefined in a cell of no
            # other use changes these alone)
            self._key = (used, self._origins(), self.cpu_paths, self.history, self._moved,
                         self._cast, self._picked, self._items, self._remade, self._read,
                         self._forward_reads, self._casts, self._accumulated)
        return self._key

    def moved_at_use(self, class_name: str) -> frozenset[str]:
        """The attributes class ``class_name`` (defined in the cells) moves itself where its
        code reads them: a plain tensor attribute left on the cpu there fails nothing."""
        return self._moved.get(class_name, frozenset())

    def cast_at_use(self, class_name: str) -> frozenset[str]:
        """The attributes class ``class_name`` (defined in the cells) casts to a dtype where its
        code reads them (rl_games' ``current_mean.float()`` of ``self.running_mean``): one
        kept in float64 beside float32 weights fails nothing. NB: a cast, not a move: read for
        dtypes only."""
        return self._cast.get(class_name, frozenset())

    def picked_by_device(self, class_name: str) -> frozenset[str]:
        """The plain containers class ``class_name`` (defined in the cells) reads by the device
        of what it is given (unsloth's ``self.multi_gpu_cos_cached[x.device.index]``): it keeps
        one tensor per device on purpose, and those on other devices than the module's are
        the other GPUs' copies."""
        return self._picked.get(class_name, frozenset())

    def read_as_items(self, class_name: str) -> frozenset[str]:
        """The attributes class ``class_name`` (defined in the cells) reads only an item at a
        time (FlashOcc's ``coor[:, 0] < self.grid_size[0]``), or only their shape, dtype or
        device: of a 1-D tensor each item is a 0-dim tensor, which may sit on the cpu beside
        tensors on any device."""
        return self._items.get(class_name, frozenset())

    def read_attrs(self, class_name: str) -> frozenset[str] | None:
        """The ``self.<attr>`` that class ``class_name`` (defined in the cells, on bases that
        are torch's ``Module`` or also defined there) reads anywhere in its own code; None
        where that cannot be told (not defined in the cells, a base defined elsewhere, a
        ``getattr``/``__dict__`` read of itself)."""
        return self._read.get(class_name)

    def forward_reads(self, class_name: str) -> frozenset[str] | None:
        """The ``self.<attr>`` that the ``forward`` of class ``class_name`` (defined in the
        cells) reads, itself or through the methods of the class it calls (``self
        .similarity_matrix(...)``); None where that cannot be told."""
        return self._forward_reads.get(class_name)

    def accumulated(self, class_name: str) -> frozenset[str]:
        """The attributes class ``class_name`` (defined in the cells) only accumulates into in
        place (``self.real_sum += x.sum(0)``) and reads only in arithmetic: an in-place write
        casts into the attribute's dtype and arithmetic promotes, so one kept in float64
        beside float32 weights fails nothing (torchmetrics' FID sums)."""
        return self._accumulated.get(class_name, frozenset())

    def casts_inputs(self, class_name: str) -> frozenset[str]:
        """The submodules (attribute names) whose dtype class ``class_name`` (defined in the
        cells) casts what it hands them to: TRL's value head keeps ``self.summary`` in float32
        beside a bfloat16 model and runs ``self.summary(output.to(self.summary.weight.dtype))``;
        a submodule kept in another dtype there fails nothing."""
        return self._casts.get(class_name, frozenset())

    def remade_at_call(self, class_name: str) -> frozenset[str]:
        """The attributes class ``class_name`` (defined in the cells) assigns in ``forward``:
        what the namespace holds is the last call's; the next call makes it again, so moving
        it changes nothing (the line that makes it is what to change)."""
        return self._remade.get(class_name, frozenset())

    def _origins(self) -> dict[str, frozenset[str]]:
        return {k: v for k, v in self.origins.items() if v}

    def mentioned(self) -> set[str]:
        """Every name some answer is not empty for (the rest: no model, no autocast)."""
        out = set(self._origins())
        for c in self._cells:
            out.update(c.uses)
        return out

    def partners(self, name: str) -> frozenset[str]:
        direct, other = self.tiers(name)
        return direct | other

    def models_of(self, name: str, known: Iterable[str] | None = None,
                  exclude: frozenset[str] = frozenset()) -> frozenset[str]:
        """The ``known`` modules (but ``exclude``) ``name`` is used with: those it is passed to
        first, then those it is combined with, else the ones it was computed from."""
        k = None if known is None or isinstance(known, frozenset) else frozenset(known)
        direct, other = self.tiers(name)
        for tier in (direct, other, self.origins.get(name, frozenset())):
            got = tier if k is None else (tier & k) - exclude
            if got:
                return got
        return frozenset()


def _handed_models(e: ast.Call, modules: Mapping[str, str]) -> frozenset[str]:
    """The models ``e`` is given by their bare names (``f(model)``, ``f(model=net)``)."""
    return frozenset(a.id for a in (*e.args, *(k.value for k in e.keywords))
                     if isinstance(a, ast.Name) and a.id in modules)


@lru_cache(maxsize=256)
def _attr_refs(src: str) -> Counter[str]:
    """:func:`._construction.attr_refs` of a parsed source, kept per source text: the same cells
    come back at every snapshot, and walking every node of twenty of them costs milliseconds.
    NB: only read (``Counter.update`` copies it into the ``_Shared``)."""
    tree = _parse(src)
    return attr_refs(tree) if tree is not None else Counter()


def _parse(src: str) -> ast.Module | None:
    """NB: cached and shared with the snapshot's own reading of the cells
    (:func:`..inspect._class_sources.parse_cell`): the same cells are re-read at every
    snapshot. Trees are only read."""
    return parse_cell(src) if len(src) <= MAX_CELL_CHARS else None


class _Visitor:
    def __init__(self, shared: _Shared) -> None:
        self.shared = shared
        self.modules = shared.types
        self.env = shared.env
        self.events: list[tuple[str, frozenset[str], bool]] = []
        self.amp: set[str] = set()
        self.in_amp = 0
        # NB: names a model met only moved to a device (``.to(device)``, ``.cuda()``), names it
        # met otherwise, and where each name was taken from (``b`` of ``for b in loader``,
        # ``images = batch["img"]``): a name is moved at each use if it and every name taken
        # from it are
        self.moved: set[str] = set()
        self.bare: set[str] = set()
        self.taken: list[tuple[str, set[str]]] = []
        # NB: a function's names bound to a moved copy (``image = image.to(device)``): what
        # meets a model through them from then on meets it moved (a cell's own rebinding
        # changes the namespace, which the snapshot reads as it is)
        self.copies: set[str] = set()
        self.functions = 0  # how many function definitions the visit is inside
        # NB: names tied to a model by handing them to an object built with it, and names
        # tied otherwise (:meth:`_models_held`)
        self.handing = 0
        self.handed: set[str] = set()
        self.met: set[str] = set()

    def moved_only(self) -> set[str]:
        moved, bare = set(self.moved), set(self.bare)
        for name, sources in reversed(self.taken):
            if name in bare:
                bare |= sources
            elif name in moved:
                moved |= sources
        return moved - bare

    # -- statements
    def body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self._define(s)
        elif isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign):
            origin = self.expr(s.value) if s.value is not None else frozenset()
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            sources = _roots_in(s.value) if s.value is not None else set()
            copy = self.functions > 0 and isinstance(s, ast.Assign) \
                and isinstance(s.value, ast.Call) and _moves_to_device(s.value)
            for t in targets:
                for n in _target_names(t):
                    old = self.env.get(n, frozenset()) if isinstance(s, ast.AugAssign) else None
                    self.env[n] = origin | (old or frozenset())
                    if copy and isinstance(t, ast.Name):
                        self.copies.add(n)
                        continue  # NB: a moved copy is no bare use of what it was made from
                    self.copies.discard(n)
                    if sources:
                        self.taken.append((n, sources))
        elif isinstance(s, ast.For | ast.AsyncFor):
            origin, free = self._walk(s.iter)
            names = _target_names(s.target)
            for n in names:
                self.env[n] = origin
                self.taken.append((n, set(free)))
            start = len(self.events)
            self.body(s.body + s.orelse)
            # NB: ``for xb, yb in batches: model(xb)``: what a loop variable meets, the
            # iterable's items meet
            self.events += [(n, models, direct) for name, models, direct in self.events[start:]
                            if name in names for n in free]
        elif isinstance(s, ast.With | ast.AsyncWith):
            amp = any(_is_autocast(item.context_expr) for item in s.items)
            for item in s.items:
                self.expr(item.context_expr)
            self.in_amp += amp
            self.body(s.body)
            self.in_amp -= amp
        else:
            self._children(s)

    def _children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child)
            elif isinstance(child, ast.expr):
                self.expr(child)
            else:  # handlers, match cases: their statements and expressions
                self._children(child)

    def _define(self, s: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        saved = dict(self.env)  # NB: locals of a function must not leak into the cell
        if isinstance(s, ast.ClassDef):
            for m in s.body:
                if isinstance(m, ast.FunctionDef) and m.name == "forward":
                    self._cpu_params(s.name, m, method=True)
            self.shared.moved_at_use[s.name] = _moved_at_use(s) | _handed_to_a_mover(
                s, self.shared.forward_moves)
            forward = next((m for m in s.body if isinstance(m, ast.FunctionDef)
                            and m.name == "forward"), None)
            if forward is not None:
                self.shared.forward_moves[s.name] = _params_moved(forward)
            self.shared.cast_at_use[s.name] = _cast_at_use(s)
            self.shared.picked_by_device[s.name] = _picked_by_device(s)
            self.shared.read_as_items[s.name] = _read_as_items(s)
            self.shared.remade_at_call[s.name] = _remade_at_call(s)
            only = _built_only(s, self.shared)
            self.shared.read_attrs[s.name] = _read_attrs(
                s, self.shared.read_attrs, frozenset(m for m, (_, c) in only.items()
                                                     if c == s.name))
            self.shared.forward_reads[s.name] = _forward_reads(s)
            self.shared.casts_inputs[s.name] = _casts_inputs(s)
            self.shared.accumulated[s.name] = _accumulated(s)
            for m in s.body:
                if isinstance(m, ast.FunctionDef) and m.name not in ("forward", "__call__"):
                    self.shared.method_moves[(s.name, m.name)] = _params_moved(m)
        else:
            self._cpu_params(s.name, s, method=False)
        start = len(self.events)
        scope = self.moved, self.bare, self.taken, self.copies
        self.moved, self.bare, self.taken, self.copies = set(), set(), [], set()
        inside = not isinstance(s, ast.ClassDef)
        self.functions += inside
        self.body(s.body)
        self.functions -= inside
        moved_only, bare = self.moved_only(), self.bare
        self.moved, self.bare, self.taken, self.copies = scope
        # NB: the cell's own names the body met (``train(net, trainloader)`` in a method) are
        # the cell's: the function's own are not
        own = _own_names(s) if not isinstance(s, ast.ClassDef) else frozenset()
        self.moved |= moved_only - own
        self.bare |= bare - own
        self.env.clear()
        self.env.update(saved)
        if not isinstance(s, ast.ClassDef):
            self._helper(s, self.events[start:])
            params = tuple(a.arg for a in (*s.args.posonlyargs, *s.args.args,
                                            *s.args.kwonlyargs))
            self.shared.moves_params[s.name] = frozenset(moved_only & set(params))
            self.shared.helper_params[s.name] = params
            # NB: a function's parameters and locals are its own, not the cell's names of the
            # same spelling (``super().__init__(train_x, likelihood)`` in a model's __init__);
            # what they meet reaches the cell through the calls of the function (``_helper``)
            own = _own_names(s)
            self.events[start:] = [ev for ev in self.events[start:] if ev[0] not in own]

    def _helper(self, f: ast.FunctionDef | ast.AsyncFunctionDef,
                events: list[tuple[str, frozenset[str], bool]]) -> None:
        """What each parameter of ``f`` meets in its body, for the calls of ``f`` to come."""
        params = tuple(a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs))
        ties: dict[str, tuple[set[str], set[str]]] = {}
        for name, models, direct in events:
            if name in params:
                ties.setdefault(name, (set(), set()))[0 if direct else 1].update(models - {name})
        if ties:
            self.shared.helpers[f.name] = (params, {k: (frozenset(d), frozenset(o))
                                                    for k, (d, o) in ties.items()})
        else:
            self.shared.helpers.pop(f.name, None)

    def _cpu_params(self, key: str, f: ast.FunctionDef | ast.AsyncFunctionDef,
                    method: bool) -> None:
        """Parameters of ``f`` passed on to an argument PyTorch wants on the CPU."""
        params = [a.arg for a in (*f.args.posonlyargs, *f.args.args)][1 if method else 0:]
        found: list[tuple[int, str]] = []
        for node in ast.walk(f):
            if not isinstance(node, ast.Call):
                continue
            for arg in self._cpu_arg_exprs(node):
                if isinstance(arg, ast.Name) and arg.id in params:
                    found.append((params.index(arg.id), arg.id))
        if found:
            self.shared.cpu_args[key] = tuple(dict.fromkeys(found))

    def _cpu_arg_exprs(self, e: ast.Call, key: str | None = None) -> list[ast.expr]:
        spec = self.shared.cpu_args.get(key or _func_name(e.func) or "", ())
        out = []
        for i, kw in spec:
            if i < len(e.args) and not any(isinstance(a, ast.Starred) for a in e.args[:i + 1]):
                out.append(e.args[i])
            out += [k.value for k in e.keywords if k.arg == kw]
        return out

    # -- expressions: each returns the models its value comes from
    def expr(self, e: ast.expr) -> frozenset[str]:
        origin, _free = self._walk(e)
        return origin

    def _walk(self, e: ast.AST) -> tuple[frozenset[str], set[str]]:
        """(models the value comes from, names used here not yet tied to a model)."""
        root = _root(e)
        if root is not None:
            if root in self.modules:
                return frozenset((root,)), set()
            return self.env.get(root, frozenset()), {_MOVED + root if root in self.copies
                                                     else root}
        if isinstance(e, ast.Call):
            return self._call(e)
        parts = [self._walk(c) for c in ast.iter_child_nodes(e)]
        origin = frozenset().union(*(p[0] for p in parts))
        free = set().union(*(p[1] for p in parts))
        if isinstance(e, _OPERATORS) and origin:
            self._tie(free, origin)
            return origin, set()
        return origin, free

    def _call(self, e: ast.Call) -> tuple[frozenset[str], set[str]]:
        inner = _cell_magic(e)
        if inner is not None:
            self.body(inner)
            return frozenset(), set()
        func = e.func
        method = func.attr if isinstance(func, ast.Attribute) else ""
        froot = _root(func.value if isinstance(func, ast.Attribute) else func)
        model = froot if froot in self.modules else _root(func)
        parts = [self._walk(a) for a in (*e.args, *(k.value for k in e.keywords))]
        if isinstance(func, ast.Name) and self.shared.moves_params.get(func.id):
            parts = self._moved_args(e, func.id, parts)
        if model is not None and model in self.modules and method:
            parts = self._method_moved_args(e, (self.modules[model], method), parts)
        origin = frozenset().union(*(p[0] for p in parts))
        free = set().union(*(p[1] for p in parts))
        if model is not None and model in self.modules:
            if method in _NOT_COMPUTE:
                return frozenset((model,)), set()
            if method not in ("", "forward", "__call__"):
                # NB: a model handed as it is to another's method (``swa_model
                # .update_parameters(model)``, ``ema.update(net)``) is an object that method
                # reads, not data fed through it: what its code does with it, not where the
                # two sit, says whether they meet (SWA averages a GPU model on the cpu)
                origin -= _handed_models(e, self.modules)
            self._cpu_paths(e, self.modules[model] if method in ("", "forward") else None)
            self._tie(free, frozenset((model,)), direct=True)
            self._tie(free, origin - {model})  # NB: loss_fn(out, y): y meets out's model
            # NB: model(h) with h from another model: the two models are used together
            self._tie({model}, origin - {model}, direct=True)
            self._tie(origin - {model}, frozenset((model,)), direct=True)
            return frozenset((model,)), set()
        self._cpu_paths(e, None)
        if isinstance(func, ast.Name) and func.id in self.shared.module_classes:
            # NB: ``ExactGPModel(train_x, train_y, likelihood)``: what a module is built from
            # is its own state (it moves it, or the snapshot judges it inside the module), not
            # data used with the modules passed beside it
            return frozenset(), set()
        if self._models_held(e) and origin:
            # NB: ``SetFitTrainer(model=model, eval_dataset=ds)``: data handed to an object
            # built with a model meets it in that object's code, which may move it (trainers
            # do) or not (``Explainer(net, background)``): tied, and marked as handed over
            self.handing += 1
            self._tie(free, origin)
            self.handing -= 1
            return origin, set()
        if isinstance(func, ast.Name) and func.id in self.shared.helpers:
            self._through_helper(e, func.id, parts)
        if method in _COPY_INTO and isinstance(func, ast.Attribute):
            return self._walk(func.value)
        if isinstance(func, ast.Attribute) and _moves_to_device(e):
            # NB: ``x.to(device)``: the model meets a copy on its device; ``x`` is still used
            # with it (its dtype matters) but where it is stored does not
            o, f = self._walk(func.value)
            return origin | o, free | {_MOVED + n for n in f}
        if isinstance(func, ast.Attribute):  # x.view(-1), out.sum(): the receiver is an operand
            o, f = self._walk(func.value)
            origin, free = origin | o, free | f
        if origin:
            self._tie(free, origin)
            return origin, set()
        return origin, free

    def _models_held(self, e: ast.Call) -> frozenset[str]:
        """The models a constructor call (a class's name: ``Trainer(...)``) is given as they
        are, by name; empty for any other call."""
        name = _func_name(e.func)
        if not name or not name[0].isupper() or name.isupper():
            return frozenset()
        return _handed_models(e, self.modules)

    def _moved_args(self, e: ast.Call, name: str, parts: list[tuple[frozenset[str], set[str]]]
                    ) -> list[tuple[frozenset[str], set[str]]]:
        """``parts`` with the free names of each argument the helper ``name`` moves to a device
        at each use (``train(net, loader)``) marked as moved."""
        params, _ties = self.shared.helpers.get(name, ((), {}))
        if not params:
            params = self.shared.helper_params.get(name, ())
        return _marked_moved(e, params, self.shared.moves_params[name], parts)

    def _method_moved_args(self, e: ast.Call, key: tuple[str, str],
                           parts: list[tuple[frozenset[str], set[str]]]
                           ) -> list[tuple[frozenset[str], set[str]]]:
        """``parts`` with the free names of each argument a model's own method moves to a
        device itself marked as moved (what it keeps on the cpu, it keeps there on purpose)."""
        params, moves = self.shared.method_moves.get(key, ((), frozenset()))
        return _marked_moved(e, params, moves, parts) if moves else parts

    def _through_helper(self, e: ast.Call, name: str,
                        parts: list[tuple[frozenset[str], set[str]]]) -> None:
        """``train_step(batch, class_weights)``: each argument meets what its parameter meets
        in the helper's body. NB: positional arguments up to the first ``*args`` only."""
        params, ties = self.shared.helpers[name]
        args: list[tuple[str | None, set[str]]] = []
        for i, a in enumerate(e.args):
            if isinstance(a, ast.Starred):
                break
            args.append((params[i] if i < len(params) else None, parts[i][1]))
        args += [(k.arg, parts[len(e.args) + j][1]) for j, k in enumerate(e.keywords)]
        moves = self.shared.moves_params.get(name, frozenset())
        for param, free in args:
            direct, other = ties.get(param or "", (frozenset(), frozenset()))
            if param in moves:  # NB: the helper moves what it takes from it at each use
                free = {_MOVED + n.removeprefix(_MOVED) for n in free}
            self._tie(free, direct, direct=True)
            self._tie(free, other)

    def _cpu_paths(self, e: ast.Call, cls: str | None) -> None:
        for arg in self._cpu_arg_exprs(e, cls):
            path = _path(arg)
            if path is not None:
                self.shared.cpu_paths.add(path)

    def _tie(self, names: Iterable[str], models: frozenset[str], direct: bool = False) -> None:
        if not models:
            return
        names = list(names)
        if any(n.startswith(_MOVED) for n in names):
            self.moved.update(n[len(_MOVED):] for n in names if n.startswith(_MOVED))
            names = [n[len(_MOVED):] if n.startswith(_MOVED) else n for n in names]
            self.bare.update(n for n in names if n not in self.moved)
        else:
            self.bare.update(names)
        (self.handed if self.handing else self.met).update(names)
        for n in names:
            self.events.append((n, models, direct))
        if self.in_amp:
            self.amp.update(names)
        if len(models) > 1:  # NB: a(x) + b(z): a and b are used together
            for m in models:
                self.events.append((m, models, direct))


def _cell_magic(e: ast.Call) -> list[ast.stmt] | None:
    """``%%cuda_safe`` cells are ``get_ipython().run_cell_magic(name, line, body)``."""
    func = e.func
    if not (isinstance(func, ast.Attribute) and func.attr == "run_cell_magic"
            and len(e.args) == 3 and isinstance(e.args[2], ast.Constant)
            and isinstance(e.args[2].value, str)):
        return None
    tree = _parse(e.args[2].value)
    return tree.body if tree is not None else None


def _is_autocast(e: ast.expr) -> bool:
    return isinstance(e, ast.Call) and _func_name(e.func) == "autocast"


def _func_name(e: ast.expr) -> str | None:
    if isinstance(e, ast.Name):
        return e.id
    return e.attr if isinstance(e, ast.Attribute) else None


_MOVES = frozenset({"to", "type_as", "cuda"})
_MOVED = "\0moved:"  # NB: a free name that reached here through a move (no identifier has a NUL)
_DEVICE_WORDS = ("dev", "cuda", "cpu", "mps", "xpu", "meta", "gpu", "rank")


def _marked_moved(e: ast.Call, params: tuple[str, ...], moves: frozenset[str],
                  parts: list[tuple[frozenset[str], set[str]]]
                  ) -> list[tuple[frozenset[str], set[str]]]:
    """``parts`` (one per argument of call ``e``) with the free names of each argument bound to
    a parameter in ``moves`` marked as moved."""
    keys = [params[i] if i < len(params) else None for i in range(len(e.args))]
    keys += [k.arg for k in e.keywords]
    return [(o, {_MOVED + n.removeprefix(_MOVED) for n in f}) if key in moves else (o, f)
            for (o, f), key in zip(parts, keys, strict=True)]


def _params_moved(f: ast.FunctionDef) -> tuple[tuple[str, ...], frozenset[str]]:
    """A method's parameters after ``self``, and those its body moves to a device somewhere
    (``x.to(device)``, ``x.cuda()``)."""
    params = tuple(a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs))[1:]
    moved = {n.func.value.id for n in ast.walk(f) if isinstance(n, ast.Call)
             and _moves_to_device(n) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id in params}
    return params, frozenset(moved)


def _moves_to_device(e: ast.Call) -> bool:
    """``x.to(device)``, ``x.to("cuda:0")``, ``x.to(y.device)``, ``x.cuda()``: a move whose
    target reads as a device (a dtype alone, ``x.to(torch.float16)``, is no move)."""
    func = e.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "cuda":
        return True
    if func.attr != "to" or not (e.args or e.keywords):
        return False
    target = e.args[0] if e.args else next((k.value for k in e.keywords if k.arg == "device"),
                                           None)
    if target is None:
        return False
    text = ast.unparse(target).lower()
    return any(w in text for w in _DEVICE_WORDS) and "dtype" not in text


def _roots_in(e: ast.expr) -> set[str]:
    """The names a value is taken from directly: ``batch`` of ``batch["img"]``, of
    ``batch.x.float()``; none of a call that makes something new (``f(batch)``)."""
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        e = e.func.value
    root = _root(e)
    return {root} if root is not None else set()


def _moved_at_use(cls: ast.ClassDef) -> frozenset[str]:
    """``self.<attr>`` a method of ``cls`` moves where it reads it: ``self.weights.to(x)``,
    ``self.pos_embed.to(x.device)``, ``self.table.type_as(h)``, and through what it reads of it
    first (peft's ``self.prompt_tokens[name].unsqueeze(0).expand(b, -1).to(w.device)``)."""
    out = set()
    members = _members(cls)
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in _MOVES or (node.func.attr == "type" and node.args)):
            receiver = node.func.value
            # NB: ``self.token_embedding(text).type(self.dtype)``: what a submodule gives is
            # cast, which is the submodule's weights' dtype cast where they are read
            called = _self_call(receiver, members)
            if called is not None:
                out.add(called)
                continue
            read = _copied_from(receiver)
            attr = _self_attr_under(read)
            if attr is None and (root := _root(read)) is not None:
                # NB: each item of ``self.X`` moved (torchvision's AnchorGenerator: ``self
                # .cell_anchors = [a.to(dtype=dtype, device=device) for a in self.cell_anchors]``)
                attr = members.get(root)
            if attr is not None:
                out.add(attr)
    for f in ast.walk(cls):
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
            out |= _outputs_cast(f, members)
    return frozenset(out)


#: torch's calls that make a tensor holding the values of their one argument
_COPIES = frozenset({"tensor", "as_tensor", "Tensor", "LongTensor", "FloatTensor", "IntTensor",
                     "BoolTensor", "DoubleTensor", "HalfTensor", "ByteTensor"})


def _copied_from(e: ast.expr) -> ast.expr:
    """What a chain of reads copies: ``self.adj_ent[ids.cpu()]`` of KGCN's
    ``torch.LongTensor(self.adj_ent[ids.cpu()]).view(b, -1).to(self.device)``, whose values
    are moved, where they are read, as a moved ``self.adj_ent`` would be."""
    while True:
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)):
            return e
        f = e.func
        if f.attr in _COPIES and isinstance(f.value, ast.Name) and f.value.id == "torch" \
                and len(e.args) == 1:
            return e.args[0]
        e = f.value


def _handed_to_a_mover(cls: ast.ClassDef, forward_moves: Mapping[
        str, tuple[tuple[str, ...], frozenset[str]]]) -> frozenset[str]:
    """``self.<attr>`` a method of ``cls`` hands to a submodule whose ``forward`` moves that
    parameter to a device (BasicTS's graph layer: ``self.cheb_graph_conv(x, self.gso)``, and
    ChebGraphConv's ``gso = gso.to(x.device)``): moved where it is read, one call down. NB:
    the submodule's class read off ``__init__`` (``self.X = ChebGraphConv(...)``), a class the
    cells defined before this one."""
    kinds: dict[str, str] = {}
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(t := node.targets[0], ast.Attribute) \
                and isinstance(t.value, ast.Name) and t.value.id == "self" \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            kinds[t.attr] = node.value.func.id
    out: set[str] = set()
    for node in ast.walk(cls):
        sub = _self_call(node) if isinstance(node, ast.Call) else None
        params, moves = forward_moves.get(kinds.get(sub or "", ""), ((), frozenset()))
        if not moves or not isinstance(node, ast.Call):
            continue
        given = [*zip(params, node.args, strict=False),
                 *((k.arg, k.value) for k in node.keywords if k.arg)]
        out |= {attr for p, arg in given if p in moves
                and (attr := _plain_self_attr(arg)) is not None}
    return frozenset(out)


def _plain_self_attr(e: ast.expr) -> str | None:
    """``X`` of a bare ``self.X``."""
    return e.attr if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) \
        and e.value.id == "self" else None


def _self_call(e: ast.expr, members: Mapping[str, str] | None = None) -> str | None:
    """``X`` of ``self.X(...)``, or of ``m(...)`` where ``members`` says the loop variable ``m``
    runs over ``self.X`` (a model's experts or layers); else None."""
    if not isinstance(e, ast.Call):
        return None
    if isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Name) \
            and e.func.value.id == "self":
        return e.func.attr
    if members and isinstance(e.func, ast.Name):
        return members.get(e.func.id)
    return None


def _members(cls: ast.ClassDef) -> dict[str, str]:
    """Loop variables bound to the items of a ``self.X`` (``for expert in self.experts``, ``for
    i, layer in enumerate(self.layers)``) -> ``X``: each item called is one of ``self.X``'s
    modules. NB: names bound so in every method of ``cls`` (a name bound otherwise in one of
    them is left out: it may be anything there)."""
    found: dict[str, str] = {}
    other: set[str] = set()
    for node in ast.walk(cls):
        if not isinstance(node, ast.For | ast.comprehension):
            continue
        it, target = node.iter, node.target
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
                and it.func.id == "enumerate" and it.args and isinstance(target, ast.Tuple) \
                and len(target.elts) == 2:
            it, target = it.args[0], target.elts[1]
        attr = _self_attr_under(it) if isinstance(it, ast.Attribute) and isinstance(
            it.value, ast.Name) else None
        if attr is not None and isinstance(target, ast.Name):
            if found.setdefault(target.id, attr) != attr:
                other.add(target.id)
        else:
            other |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            other |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return {k: v for k, v in found.items() if k not in other}


def _outputs_cast(f: ast.FunctionDef | ast.AsyncFunctionDef,
                  members: Mapping[str, str] | None = None) -> set[str]:
    """``X`` where ``f`` keeps what ``self.X(...)`` gives in a local and casts that local later
    (ESMFold: ``esm_s = self.esm(ids)`` then ``esm_s = esm_s.to(self.esm_s_combine.dtype)``):
    the same cast of a submodule's output as ``self.X(...).to(...)``, in two statements; or
    what it reads of ``self.X`` (LayoutLMv3's ``visual_bbox = self.visual_bbox.repeat(b, 1,
    1)`` then ``visual_bbox = visual_bbox.to(device)``)."""
    made: dict[str, str] = {}
    for node in ast.walk(f):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            called = _self_call(node.value, members)
            if called is None:
                called = _self_attr_under(node.value)
            if called is not None:
                made[node.targets[0].id] = called
    if not made:
        return set()
    return {made[node.func.value.id] for node in ast.walk(f)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and (node.func.attr in _MOVES or (node.func.attr == "type" and node.args))
            and isinstance(node.func.value, ast.Name) and node.func.value.id in made}


_MODULE_BASES = frozenset({"Module", "nn.Module", "torch.nn.Module"})


def _read_attrs(cls: ast.ClassDef, known: Mapping[str, frozenset[str] | None],
                built: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """``self.<attr>`` read (not only assigned) in ``cls``'s body outside ``__init__`` and
    the methods ``built`` (those only construction runs), its bases' reads included where the
    cells define them; None where a base is neither torch's ``Module`` nor a class the cells
    define, or where ``cls`` reads itself by name (``getattr(self, k)``, ``self.__dict__``,
    ``vars(self)``): its code may then read any attribute."""
    reads: set[str] = set()
    for b in cls.bases:
        name = ast.unparse(b)
        if name in _MODULE_BASES:
            continue
        got = known.get(name)
        if got is None:
            return None
        reads |= got
    # NB: not ``__init__``: what it reads it reads once, before any ``.to()`` (Pyro's MADE
    # masks, kept in a plain list and handed to layers that register copies as buffers)
    body = [n for stmt in cls.body
            if not (isinstance(stmt, ast.FunctionDef)
                    and (stmt.name == "__init__" or stmt.name in built))
            for n in ast.walk(stmt)]
    own = self_reads(body)
    return None if own is None else frozenset(reads | own)


def _built_only(cls: ast.ClassDef, shared: _Shared) -> dict[str, tuple[frozenset[str] | None,
                                                                      str]]:
    """The methods only ``cls``'s construction runs (:func:`._construction.construction_only`),
    with those of its bases the cells define, kept in ``shared`` with the class's own
    references to names."""
    only: dict[str, tuple[frozenset[str] | None, str]] = {}
    for b in cls.bases:
        only.update(shared.built_only.get(ast.unparse(b), {}))
    own: BuiltOnly = construction_only(cls)
    only.update((m, (reads, cls.name)) for m, reads in own.items())
    shared.built_only[cls.name] = only
    if own:  # NB: read only for the methods a class defines itself
        shared.own_refs[cls.name] = class_refs(cls)
    return only


def _named_back(shared: _Shared) -> dict[str, frozenset[str] | None]:
    """``shared.read_attrs`` with the reads of each method only construction runs added
    back where some other source names that method (a hook calling ``self.prior
    .set_rho_mask()``, a subclass's ``super().compute_modes()``)."""
    read = dict(shared.read_attrs)
    empty: Counter[str] = Counter()
    for cls, only in shared.built_only.items():
        got = read.get(cls)
        todo = [m for m, (_, owner) in only.items()
                if named_elsewhere(m, shared.own_refs.get(owner, empty), shared.attr_refs)]
        back: set[str] = set()
        while todo and got is not None:
            method = todo.pop()
            if method in back:
                continue
            back.add(method)
            reads = only[method][0]
            got = None if reads is None else got | reads
            todo += [m for m in reads or () if m in only]  # NB: what it calls runs again too
        read[cls] = got
    return read


def _forward_reads(cls: ast.ClassDef) -> frozenset[str] | None:
    """``self.<attr>`` read by ``cls.forward`` and by the methods of ``cls`` it calls, theirs
    too; None where ``cls`` does not define ``forward``, has a base other than torch's
    ``Module``, or reads itself by name (``getattr(self, k)``)."""
    methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)}
    if "forward" not in methods or any(ast.unparse(b) not in _MODULE_BASES for b in cls.bases):
        return None
    todo, seen, reads = ["forward"], set(), set()
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.add(name)
        got = self_reads(ast.walk(methods[name]))
        if got is None:
            return None
        reads |= got
        todo += got  # NB: a method of its own it calls is read in turn
    return frozenset(reads)


#: methods that read their receiver elementwise; those ending in ``_`` write into it, in its
#: own dtype
_ELEMENTWISE = frozenset({"add_", "sub_", "mul_", "div_", "copy_", "zero_", "fill_", "addmm_",
                          "add", "sub", "mul", "div", "sum", "mean"})
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)


def _accumulated(cls: ast.ClassDef) -> frozenset[str]:
    """``X`` of every ``self.X`` that ``cls`` writes in place (``self.X += v``,
    ``self.X.add_(v)``) and otherwise reads only as an operand of arithmetic or of an
    elementwise method, outside ``__init__``: never handed to a matmul, a layer or a call."""
    parents: dict[int, ast.AST] = {}
    body = [stmt for stmt in cls.body
            if not (isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__")]
    for stmt in body:
        for node in ast.walk(stmt):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
    written: set[str] = set()
    bad: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "self"):
                continue
            up = parents.get(id(node))
            if isinstance(up, ast.AugAssign) and up.target is node:
                written.add(node.attr)
            elif isinstance(node.ctx, ast.Store) or isinstance(up, ast.Delete):
                continue
            elif isinstance(up, ast.Attribute) and up.attr in _ELEMENTWISE \
                    and isinstance(parents.get(id(up)), ast.Call):
                if up.attr.endswith("_"):
                    written.add(node.attr)
            elif not (isinstance(up, ast.BinOp) and isinstance(up.op, _ARITHMETIC)):
                bad.add(node.attr)
    return frozenset(written - bad)


def _self_attr_under(e: ast.expr) -> str | None:
    """``X`` of the ``self.X`` a chain of reads starts from (``self.X[k].view(-1)``)."""
    while True:
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
            return e.attr
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            e = e.func.value
        elif isinstance(e, ast.Subscript | ast.Attribute):
            e = e.value
        else:
            return None


def _casts_inputs(cls: ast.ClassDef) -> frozenset[str]:
    """``X`` of every ``self.X`` whose dtype a method of ``cls`` casts a value to: ``h.to(self
    .X.weight.dtype)``, ``h.to(dtype=self.X.dtype)``, ``h.type_as(self.X.weight)``, or a local
    bound to what it reads of ``self.X`` (PEFT's VeRA: ``lambda_d = self.vera_lambda_d[name]``,
    then ``x = x.to(lambda_d.dtype)``). NB: a value that is not ``self.X`` itself (that is a
    move where it is read: :func:`_moved_at_use`).

    A method that casts its input so and casts its result back to the dtype it saved of an
    argument (``previous_dtype = x.dtype`` ... ``return result.to(previous_dtype)``) computes
    in its own weights' dtype, an island: every ``self.Y`` it reads is counted (VeRA's
    ``vera_lambda_b``, which only meets the cast input's results)."""
    out = set()
    for f in ast.walk(cls):
        if not isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        alias = _aliases(f)
        cast = set()
        for node in ast.walk(f):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("to", "type", "type_as")):
                continue
            if _self_attr_under(node.func.value) is not None:
                continue
            for arg in (*node.args, *(k.value for k in node.keywords if k.arg == "dtype")):
                if isinstance(arg, ast.Attribute) and arg.attr == "dtype":
                    arg = arg.value
                attr = _self_attr_under(arg) if isinstance(arg, ast.Attribute) else None
                if attr is None and (root := _root(arg)) is not None and root != "self":
                    attr = alias.get(root)
                if attr is not None:
                    cast.add(attr)
        out |= {FED + x for x in _fed_float32(f)}
        out |= {AUTOCAST + x for x in _under_autocast(f)}
        out |= cast
        if cast and _casts_back(f):
            out |= {n.attr for n in ast.walk(f) if isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name) and n.value.id == "self"}
    return frozenset(out)


#: marks, in :meth:`Usage.casts_inputs`, a submodule handed a literal float32 (``h.float()``),
#: not a value cast to that submodule's own dtype: only the model's own class speaks for it
FED = "^"


#: marks, in :meth:`Usage.casts_inputs`, a submodule a method of the class calls inside an
#: autocast block of its own (BLIP-2's and MiniGPT-4's ``with self.maybe_autocast():``)
AUTOCAST = "@"


def _under_autocast(f: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``X`` of every ``self.X`` that ``f`` calls or reads inside ``with torch.autocast(...)``,
    or a context of its own named so (``self.maybe_autocast()``): autocast casts the inputs of
    the ops it covers, so a submodule or weight kept in another dtype meets what it expects
    there."""
    out: set[str] = set()
    for node in ast.walk(f):
        if not isinstance(node, ast.With | ast.AsyncWith) or not any(
                isinstance(i.context_expr, ast.Call)
                and "autocast" in (_func_name(i.context_expr.func) or "")
                for i in node.items):
            continue
        for stmt in node.body:
            for read in ast.walk(stmt):  # NB: submodules called and weights read there
                if isinstance(read, ast.Attribute) and isinstance(read.ctx, ast.Load) \
                        and isinstance(read.value, ast.Name) and read.value.id == "self":
                    out.add(read.attr)
    return out


def _fed_float32(f: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``X`` of every ``self.X(v)`` whose input ``f`` casts to float32 first, in the call or in
    the statement that last bound the local ``v`` (openpi's ``suffix_out = suffix_out.to(
    dtype=torch.float32)`` then ``self.action_out_proj(suffix_out)``): a float32 layer kept
    beside half ones, handed float32. NB: a literal float32 only: these are the float32
    strays of a half model that :func:`_casts_inputs` speaks for. What such a layer gives is
    float32 too, so only where the model itself gives it (its own class hands it over, not
    a block inside it whose output meets half layers again) is it kept on purpose."""
    bound: dict[str, list[tuple[int, bool]]] = {}
    for node in ast.walk(f):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            bound.setdefault(node.targets[0].id, []).append((node.lineno,
                                                            _float32_cast(node.value)))
    out = set()
    for node in ast.walk(f):
        if not (isinstance(node, ast.Call) and node.args
                and (attr := _self_attr_under(node.func)) is not None
                and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)):
            continue
        arg = node.args[0]
        if _float32_cast(arg):
            out.add(attr)
        elif isinstance(arg, ast.Name):
            before = [c for line, c in bound.get(arg.id, []) if line < node.lineno]
            if before and before[-1]:
                out.add(attr)
    return out


def _float32_cast(e: ast.expr) -> bool:
    """``v.float()``, ``v.to(torch.float32)``, ``v.to(dtype=torch.float32)``,
    ``v.type(torch.float32)``."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)):
        return False
    if e.func.attr == "float" and not e.args and not e.keywords:
        return True
    if e.func.attr not in ("to", "type"):
        return False
    given = [*e.args, *(k.value for k in e.keywords if k.arg == "dtype")]
    return any(isinstance(a, ast.Attribute) and a.attr in ("float32", "float")
               and isinstance(a.value, ast.Name) and a.value.id == "torch" for a in given)


def _aliases(f: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """Locals of ``f`` bound (once) to what it reads of a ``self.X`` (``lambda_d =
    self.vera_lambda_d[name]``, ``current_mean = self.running_mean``) -> ``X``."""
    bound: dict[str, str | None] = {}
    for node in ast.walk(f):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        attr = _self_attr_under(node.value) if t is n else None
                        bound[n.id] = attr if n.id not in bound else None
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.comprehension
                        | ast.NamedExpr):
            target = node.target
            bound.update({n.id: None for n in ast.walk(target) if isinstance(n, ast.Name)})
    return {k: v for k, v in bound.items() if v is not None}


def _casts_back(f: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``f`` saves the dtype of one of its arguments (``previous_dtype = x.dtype``) and casts a
    value to it (``result.to(previous_dtype)``): what it gives has its input's dtype."""
    params = {a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs)} - {"self"}
    saved = {t.id for node in ast.walk(f) if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Attribute) and node.value.attr == "dtype"
             and isinstance(node.value.value, ast.Name) and node.value.value.id in params
             for t in node.targets if isinstance(t, ast.Name)}
    if not saved:
        return False
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in ("to", "type")
               and any(isinstance(a, ast.Name) and a.id in saved
                       for a in (*node.args, *(k.value for k in node.keywords)))
               for node in ast.walk(f))


_DTYPE_CASTS = frozenset({"float", "half", "double", "bfloat16"})


def _cast_at_use(cls: ast.ClassDef) -> frozenset[str]:
    """``X`` of every ``self.X`` a method of ``cls`` casts to a dtype where it reads it:
    ``self.running_var.float()``, or through a local bound to what it reads of it (rl_games'
    RunningMeanStd: ``current_mean = self.running_mean``, then ``current_mean.float()``)."""
    out = set()
    for f in ast.walk(cls):
        if not isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        alias: dict[str, str] | None = None
        for node in ast.walk(f):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _DTYPE_CASTS and not node.args and not node.keywords):
                continue
            read = _copied_from(node.func.value)
            attr = _self_attr_under(read)
            if attr is None and (root := _root(read)) is not None and root != "self":
                alias = _aliases(f) if alias is None else alias
                attr = alias.get(root)
            if attr is not None:
                out.add(attr)
    return frozenset(out)


def _picked_by_device(cls: ast.ClassDef) -> frozenset[str]:
    """``X`` of every ``self.X[...]`` a method of ``cls`` reads by a device (``self
    .multi_gpu_cos_cached[x.device.index]``, or a local bound to such a read: ``device_index =
    x.device.index``): a container of one tensor per device."""
    out = set()
    for f in ast.walk(cls):
        if not isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        by_device = {t.id for node in ast.walk(f) if isinstance(node, ast.Assign)
                     and _reads_a_device(node.value, set())
                     for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(f):
            if isinstance(node, ast.Subscript) and (attr := _plain_self_attr(node.value)) \
                    and _reads_a_device(node.slice, by_device):
                out.add(attr)
    return frozenset(out)


def _read_as_items(cls: ast.ClassDef) -> frozenset[str]:
    """``X`` of every ``self.X`` that the methods of ``cls`` read only as ``self.X[i]`` with
    ``i`` a literal integer, or for its header (``.shape``, ``.dtype``, ``.device``, ``len``),
    and bind only by assigning it whole."""
    parents = {id(c): p for p in ast.walk(cls) for c in ast.iter_child_nodes(p)}
    ok: set[str] = set()
    bad: set[str] = set()
    for node in ast.walk(cls):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        attr = _plain_self_attr(node)
        if attr is None:
            continue
        up = parents.get(id(node))
        item = isinstance(up, ast.Subscript) and up.value is node \
            and isinstance(up.ctx, ast.Load) and _an_int(up.slice)
        header = (isinstance(up, ast.Attribute) and up.attr in _HEADER) or (
            isinstance(up, ast.Call) and isinstance(up.func, ast.Name)
            and up.func.id == "len" and node in up.args)
        (ok if item or header else bad).add(attr)
    return frozenset(ok - bad)


_HEADER = frozenset({"shape", "dtype", "device", "ndim"})


def _an_int(e: ast.expr) -> bool:
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
    return isinstance(e, ast.Constant) and type(e.value) is int


def _reads_a_device(e: ast.expr, names: set[str]) -> bool:
    """``e`` reads a ``.device`` (``x.device.index``), or one of ``names``."""
    return any((isinstance(n, ast.Attribute) and n.attr == "device")
               or (isinstance(n, ast.Name) and n.id in names) for n in ast.walk(e))


def _remade_at_call(cls: ast.ClassDef) -> frozenset[str]:
    """``self.<attr>`` that ``cls.forward`` assigns (``self.pos_index = ...``)."""
    out: set[str] = set()
    for m in cls.body:
        if isinstance(m, ast.FunctionDef) and m.name == "forward":
            for node in ast.walk(m):
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, ast.AnnAssign) else [])
                out.update(t.attr for t in targets if isinstance(t, ast.Attribute)
                           and isinstance(t.value, ast.Name) and t.value.id == "self")
    return frozenset(out)


@lru_cache(maxsize=1024)
def _own_names(f: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names a function binds itself: its parameters, and what its body assigns (not
    what it declares ``global``). NB: cached by node: the cells' trees are cached and only
    read, and every snapshot reads the same cells again."""
    a = f.args
    out = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    out |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    declared: set[str] = set()
    for node in ast.walk(f):
        if isinstance(node, ast.Global | ast.Nonlocal):
            declared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return frozenset(out - declared)


def _root(e: ast.AST) -> str | None:
    """The name at the root of ``a``, ``a.b``, ``a["k"]``, ``a[0].c``; None for anything else."""
    while isinstance(e, ast.Attribute | ast.Subscript | ast.Starred):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None


def _path(e: ast.expr) -> str | None:
    """``batch["lengths"]`` as a snapshot writes its path (``batch['lengths']``), else None."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        inner = _path(e.value)
        return None if inner is None else f"{inner}.{e.attr}"
    if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant):
        inner, key = _path(e.value), e.slice.value
        return None if inner is None or not isinstance(key, str | int) else f"{inner}[{key!r}]"
    return None


def _target_names(t: ast.AST) -> list[str]:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, ast.Tuple | ast.List):
        return [n for el in t.elts for n in _target_names(el)]
    if isinstance(t, ast.Starred):
        return _target_names(t.value)
    return []
