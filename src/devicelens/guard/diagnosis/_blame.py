"""Who is who when a torch op fails: user-facing names, the module being run, the cell line.

Shared by the guard (which sees the op's arguments) and the post-mortem handler (which sees only a
traceback). Everything here runs on the failure path only, so it may take a snapshot; it never
runs user code: tensors and modules are matched to namespace paths *by identity*.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from ...inspect import _tree
from ..running._frames import (
    _PACKAGE,
    CellFiles,
    Frame,
    default_cell_files,
    frame_locals,
    internal_file,
)
from . import _source


class Named(NamedTuple):
    """A tensor as users know it."""

    name: str  # labels, model.encoder.pos_emb, batch['y'], `h` in RNN.forward
    code: str  # a Python expression in user names, '' when there is none
    role: str  # tensor | parameter | buffer | attribute | trapped | state | grad | local | unnamed
    root: str  # the namespace name it hangs off ('' for locals and unnamed)


class Operand(NamedTuple):
    where: str  # "argument 1", "weight=", "argument 1[2]", "`input` in Linear.forward"
    named: Named
    device: str
    dtype: str
    shape: tuple[int, ...]
    what: str = ""  # replaces "dtype[shape] on device" (a module, an optimizer, code)

    @property
    def scalar_cpu(self) -> bool:
        """0-dim CPU tensors mix with any device (PyTorch allows it)."""
        return self.shape == () and self.device == "cpu"

    def describe(self) -> str:
        shape = ", ".join(str(s) for s in self.shape)
        where = "" if self.where in ("", self.named.name) else f", {self.where}"
        what = self.what or f"{self.dtype}[{shape}] on {self.device}"
        return f"{self.named.name} ({what}){where}"


# --- names by identity ----------------------------------------------------------------------

class Namer:
    """id(tensor) -> :class:`Named`, id(module) -> path, built lazily from one snapshot.

    NB: a namespace name always wins over a local one (``labels``, not `target` in
    cross_entropy), and a view is named after the namespace tensor it views (``y.view(-1)`` ->
    ``y``); objects the snapshot does not walk (plain objects' attributes) are found by
    :mod:`._lookup`.
    """

    def __init__(self, namespace: dict[str, Any], frames: Sequence[Frame] = (),
                 is_cell: CellFiles | None = None) -> None:
        self.ns = namespace
        self.frames = frames
        self.is_cell = is_cell or default_cell_files()
        self._tensors: dict[int, Named] | None = None
        self._state_params: dict[int, str] = {}  # id(optimizer state) -> its parameter's dtype
        self._held: dict[int, Named | None] = {}  # id(tensor) -> :meth:`held`'s answer
        self.held_at: dict[int, tuple[int, str]] = {}  # id(tensor) -> (frame index, its path)
        self._locals: dict[int, Named] = {}
        self.local_at: dict[int, tuple[int, str, str]] = {}  # id -> (frame index, name, [i])
        #: id(tensor) -> (frame index, local name, the module): a module a function built and
        #: holds in a local (``encoder``), not yet reachable from the namespace
        self.local_modules: dict[int, tuple[int, str, Any]] = {}
        self._local_paths: dict[int, str] = {}  # id(module) -> its path through such a local
        self._modules: dict[int, str] = {}  # NB: display paths, as the snapshot's records
        self._module_code: dict[int, str] = {}  # the same, as code (``model.blocks[0]``)
        self._deep: dict[int, str] = {}
        self._keep: list[Any] = []  # NB: keeps every mapped object alive, so ids stay unique
        self._named: list[tuple[Any, Named]] = []  # NB: best name first
        self._shared: Any = None
        self._views: dict[int, list[tuple[Any, Named]]] | None = None  # id(base) -> its views
        self.snapshot: Any = None

    def _cell_names(self, functions_only: bool = False) -> frozenset[str]:
        """The global names the innermost cell's top level reads, and those the functions it
        called read where a cell defined them (``W1`` in ``net``, beside the ``params`` the
        cell passes): the names the failing code spells. ``functions_only``: those functions'
        only."""
        import dis

        out: set[str] = set()
        for fr in self.frames:
            code = fr.frame.f_code
            if not self.is_cell(code.co_filename):
                continue
            if code.co_name == "<module>":
                return frozenset(out if functions_only else out | set(code.co_names))
            # NB: a function's globals only (``W1``), never its attributes' names
            # (``self.instance_loss_fn`` is no read of a global ``instance_loss_fn``)
            out.update(str(i.argval) for i in dis.get_instructions(code)
                       if i.opname == "LOAD_GLOBAL")
        return frozenset()

    def _line_names(self) -> frozenset[str]:
        """The names the line of the cell's top level that failed spells (the call into the
        function that failed, where one did): between two names of one model (``m0 =
        m1.to(d)`` makes ``m0`` the very ``m1``), the one the failing line calls it by."""
        import linecache

        for fr in self.frames:
            code = fr.frame.f_code
            if not self.is_cell(code.co_filename) or code.co_name != "<module>":
                continue
            text = linecache.getline(code.co_filename, fr.lineno).strip()
            try:
                tree = ast.parse(text)
            except SyntaxError:  # NB: one line of a statement written over several
                return frozenset()
            return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                             and isinstance(n.ctx, ast.Load))
        return frozenset()

    def loop_names(self) -> frozenset[str]:
        """The names the failing cell's top level binds as ``for`` targets: each pass rebinds
        them, so ``block`` is the module of the pass that failed, ``model.blocks[1]`` its
        lasting name."""
        for fr in self.frames:
            code = fr.frame.f_code
            if not self.is_cell(code.co_filename) or code.co_name != "<module>":
                continue
            src = _source.load(code.co_filename)
            return frozenset() if src is None else frozenset(_for_targets(src.tree.body))
        return frozenset()

    def _build(self) -> dict[int, Named]:
        if self._tensors is not None:
            return self._tensors
        from ...inspect import take_snapshot

        self._tensors = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NB: reading .grad of a non-leaf warns; harmless
            self.snapshot = snap = take_snapshot(self.ns)
        # NB: module paths first: `w = model.fc.weight` is still named model.fc.weight; then an
        # optimizer's state (what uses it), then containers; a parameter only an optimizer still
        # holds (its model replaced it) last
        # NB: between names of the same rank, one the failing cell reads (``batch``, not the
        # ``raw_batch`` it was made from, when both hold the same tuple)
        used = self._cell_names()
        records = sorted((t for o in snap.objects for t in o.tensors),
                         key=lambda t: (_rank(t), str(t.ref[0].key) not in used))
        # NB: each optimizer parameter's dtype, by its optimizer and place (group, index)
        params = {(rec.ref[:-1], rec.ref[-1].key): rec.dtype for rec in records
                  if rec.role == "opt_param"}
        for rec in records:
            obj = self._resolve(rec.ref)
            if obj is not None and id(obj) not in self._tensors:
                code = _tree.code_for(rec.ref) if _tree.has_code(rec.ref) else ""
                # NB: named as the user would write it (``model.blocks[0].w``), when it can be
                self._tensors[id(obj)] = Named(code if code and rec.role != "state" else rec.path,
                                               code, rec.role, str(rec.ref[0].key))
                self._named.append((obj, self._tensors[id(obj)]))
                if rec.role == "state":
                    pdtype = params.get((rec.ref[:-2], rec.ref[-2].key))
                    if pdtype is not None:
                        self._state_params[id(obj)] = pdtype
        read, line = self._cell_names(functions_only=True), self._line_names()
        loops = self.loop_names()
        modules: dict[int, tuple[tuple[bool, int, bool, bool, int], str, _tree.Ref]] = {}
        for o in snap.objects:
            for m in o.modules:
                obj = self._resolve(m.ref)
                # NB: `encoding` rather than `model.0`; of two names of one model, the one
                # the functions that failed read as a global, else the one the cell's failing
                # line spells; a name the cell's own loop rebinds (``block`` of ``for block in
                # model.blocks``) only where nothing else holds the module
                root = str(m.ref[0].key)
                rank = (root in loops, len(m.ref), root not in read, root not in line,
                        len(m.path))
                if obj is not None and (id(obj) not in modules or rank < modules[id(obj)][0]):
                    modules[id(obj)] = (rank, m.path, m.ref)
        self._modules = {k: v[1] for k, v in modules.items()}
        self._module_code = {k: _tree.code_for(v[2]) for k, v in modules.items()
                             if _tree.has_code(v[2])}
        self._add_locals()
        return self._tensors

    def build(self) -> Any:
        """The snapshot the names come from (taken on first use)."""
        self._build()
        return self.snapshot

    def _resolve(self, ref: _tree.Ref) -> Any:
        try:
            obj = _tree.resolve(self.ns, ref)
        except LookupError:
            return None
        self._keep.append(obj)
        return obj

    def _add_locals(self) -> None:
        # NB: user code first: `h0` in Net.forward, not `hx` in torch's GRU.forward
        order = sorted(range(len(self.frames)),
                       key=lambda i: not self.is_cell(self.frames[i].frame.f_code.co_filename))
        selves: list[tuple[int, Any]] = []
        for i in order:
            f = self.frames[i].frame
            if f.f_globals is self.ns and f.f_code.co_name == "<module>":
                continue  # the cell's top level: its locals are the namespace
            loc = frame_locals(f)
            if internal_file(f.f_code.co_filename) or f.f_code.co_filename.startswith(_PACKAGE) \
                    or not (self.is_cell(f.f_code.co_filename) or "self" in loc):
                continue  # NB: torch's machinery and devicelens' own frames name nothing
            for k, v in loc.items():
                if k == "self":
                    if is_module(v) and self.is_cell(f.f_code.co_filename) \
                            and id(v) not in self._modules:
                        selves.append((i, v))
                    continue
                if is_module(v):
                    if self.is_cell(f.f_code.co_filename):  # NB: the user's own functions'
                        self._add_local_module(i, k, v)
                    continue
                for sub, t in _local_tensors(v):
                    if id(t) not in self._locals:
                        self._keep.append(t)
                        self.local_at[id(t)] = (i, k, sub)
                        self._locals[id(t)] = Named(f"`{k}{sub}` in {f.f_code.co_qualname}", "",
                                                    "local", "")
        # NB: last, so that any other name wins: a module the user's code builds and calls at
        # once (a metric made inside ``validation_step``) is known by its own ``self`` only
        for i, m in selves:
            self._add_local_module(i, "self", m)

    def _add_local_module(self, i: int, k: str, m: Any) -> None:
        """The tensors of module ``m``, local ``k`` of frame ``i``, named through it
        (``encoder.layers[0].weight``): a model a function builds is not in the namespace yet.
        NB: read as a snapshot reads a namespace: ``__dict__``s, no user code."""
        from ...inspect import take_snapshot

        if id(m) in self._modules or any(id(m) == id(x[2]) for x in self.local_modules.values()):
            return
        qualname = self.frames[i].frame.f_code.co_qualname
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            snap = take_snapshot({k: m})
        for o in snap.objects:
            for mod in o.modules:
                try:
                    sub = _tree.resolve({k: m}, mod.ref)
                except LookupError:
                    continue
                path = _tree.code_for(mod.ref) if _tree.has_code(mod.ref) else mod.path
                self._keep.append(sub)
                self._local_paths.setdefault(id(sub), f"`{path}` in {qualname}")
            for rec in o.tensors:
                try:
                    t = _tree.resolve({k: m}, rec.ref)
                except LookupError:
                    continue
                if id(t) in (self._tensors or {}) or id(t) in self._locals:
                    continue
                code = _tree.code_for(rec.ref) if _tree.has_code(rec.ref) else rec.path
                self._keep.append(t)
                self.local_at[id(t)] = (i, k, code[len(k):])
                self.local_modules[id(t)] = (i, k, m)
                self._locals[id(t)] = Named(f"`{code}` in {qualname}", "", "local", "")

    def tensor(self, t: Any) -> Named | None:
        """The name of ``t``, or of the namespace tensor it is a view of."""
        known = self._build()
        base = _base(t)
        if id(t) in known:
            named = known[id(t)]
            if named.role == "opt_param":
                # NB: a parameter the snapshot saw only through an optimizer, its model held
                # by a plain object (RLHive's ``agent._qnet`` beside ``agent._optimizer``): the
                # model's own path, where one reaches it; moving the model is the fix
                code = self.deep([t]).get(id(t), "")
                if code and ".param_groups[" not in code and ".state[" not in code:
                    return Named(code, code, "tensor", _root(code))
            return named
        held = known.get(id(base)) if base is not None else None
        # NB: a module's or optimizer's own tensor keeps its name (moving it is the fix)
        near = (self._same_view(t, base) if base is not None
                and (held is None or held.role == "tensor") else None)
        if near is not None or held is not None:
            return near or held
        deep = self.deep([t] + ([base] if base is not None else []))
        for obj in (t, base):
            if obj is not None and id(obj) in deep:
                code = deep[id(obj)]
                role = "state" if ".state[...][" in code else "tensor"
                return Named(code, code, role, _root(code))
        shared = self.same_data(t)
        if shared is not None:
            return shared
        for obj in (t, base):
            if obj is not None and id(obj) in self._locals:
                return self._locals[id(obj)]
        return None

    def _same_view(self, t: Any, base: Any) -> Named | None:
        """The namespace view of ``base`` holding exactly ``t``'s elements, a nearer name than
        the base: ``x`` for ``x.flatten()`` where ``x = dataset.tensors[0][0]`` (moving ``x``
        is the fix; the dataset's whole tensor is not what the cell used)."""
        from ._shared import region

        if self._views is None:
            self._views = {}
            for obj, named in self._named:
                b = _base(obj)
                if b is not None:
                    self._views.setdefault(id(b), []).append((obj, named))
        views = self._views.get(id(base))
        want = region(t) if views else None
        if want is None:
            return None
        return next((named for obj, named in views or () if region(obj) == want), None)

    def same_data(self, t: Any) -> Named | None:
        """The namespace tensor whose data ``t`` is, seen the same way (``ema_v`` from
        ``model_ema.state_dict().values()`` is ``model_ema.module.0.weight``)."""
        from ._shared import SharedIndex

        if self._shared is None:
            self._build()
            self._shared = SharedIndex()
            for obj, named in self._named:
                self._shared.add(obj, named)
        found: Named | None = self._shared.get(t)
        return found

    def state_param_dtype(self, t: Any) -> str:
        """The dtype of the parameter whose optimizer state ``t`` is ('' if it is none)."""
        self._build()
        return self._state_params.get(id(t), "")

    def label(self, t: Any, where: str) -> Named | None:
        """:meth:`tensor`, or where an operand has no name of its own, the name :meth:`held`
        finds (else none: described by ``where``, "argument 2")."""
        named = self.tensor(t)
        if named is None and not where.startswith("`"):
            named = self.held(t)
        return named

    def held(self, t: Any) -> Named | None:
        """A tensor no namespace path reaches, named through the outermost function that holds
        it in a local: what a plain object built inside a function keeps
        (`suppress_tokens_logits_processor.suppress_tokens` in BarkSemanticModel.generate, for
        ``self.suppress_tokens`` in the processor's ``__call__``), else the ``self`` of the
        method that reads it. NB: a display name only (role "unnamed", no code): the blame and
        the fix are what they were; found as :func:`._lookup.find` finds namespace paths."""
        from ._lookup import find

        if id(t) in self._held:
            return self._held[id(t)]
        self._keep.append(t)
        self._held[id(t)] = None
        base = _base(t)
        want = {id(o): o for o in (t, base) if o is not None}
        for i in reversed(range(len(self.frames))):  # NB: innermost first: outermost tried first
            f = self.frames[i].frame
            if f.f_globals is self.ns and f.f_code.co_name == "<module>":
                continue  # the cell's top level: its locals are the namespace
            if internal_file(f.f_code.co_filename) or f.f_code.co_filename.startswith(_PACKAGE):
                continue
            found = find(frame_locals(f), want)
            path = found.get(id(t)) or (found.get(id(base)) if base is not None else None)
            if path:
                self._keep += list(want.values())
                named = self._held[id(t)] = Named(f"`{path}` in {f.f_code.co_qualname}", "",
                                                  "unnamed", "")
                self.held_at[id(t)] = (i, path)
                return named
        return None

    def holder(self, t: Any) -> Any:
        """The namespace tensor that gives ``t`` its name: ``t`` itself, or what it views."""
        known = self._build()
        base = _base(t)
        if id(t) in known or base is None:
            return t
        return base if id(base) in known or id(base) in self._deep else t

    def namespace_tensor(self, t: Any) -> Named | None:
        """Like :meth:`tensor`, but only namespace names (never a local of a frame)."""
        named = self.tensor(t)
        return named if named is not None and named.role != "local" else None

    def deep(self, objs: list[Any]) -> dict[int, str]:
        """Code paths of ``objs`` found anywhere below the namespace (plain objects too)."""
        from ._lookup import find

        want = {id(o): o for o in objs if id(o) not in self._deep}
        if want:
            self._keep += list(want.values())
            self._deep.update(find(self.ns, want))
        return {id(o): self._deep[id(o)] for o in objs if id(o) in self._deep}

    def owner(self, obj: Any) -> str:
        """The user's name for a module or any other object ('' when unreachable), as they
        would write it: ``model.blocks[0]``, not the snapshot's ``model.blocks.0``, which is
        no Python that a fix or an edit's handle could use."""
        path = self.module(obj)
        if path:
            return self._module_code.get(id(obj), path)
        return self.deep([obj]).get(id(obj), "")

    def module(self, m: Any) -> str | None:
        self._build()
        return self._modules.get(id(m))

    def module_code(self, m: Any) -> str:
        """``m``'s path as code (``model.blocks[0]``), or its display path, or ''."""
        self._build()
        return self._module_code.get(id(m)) or self._modules.get(id(m)) or ""

    def module_label(self, m: Any) -> str:
        # NB: a model a plain object holds (``tg.init_model``) is not in the snapshot's walk
        path = self.module(m)  # NB: builds the names first
        path = (self._module_code.get(id(m), path) if path else
                self._local_paths.get(id(m)) or self.deep([m]).get(id(m)))
        kind = type(m).__name__
        return f"{path} ({kind})" if path else f"a {kind} not reachable from the namespace"


def _rank(t: Any) -> int:
    return {"parameter": 0, "buffer": 0, "attribute": 0, "state": 1, "opt_param": 3}.get(
        t.role, 2)


def _base(t: Any) -> Any:
    try:
        return t._base
    except Exception:  # NB: exotic subclasses may refuse it
        return None


def _root(code: str) -> str:
    m = re.match(r"[A-Za-z_]\w*", code)
    return m.group(0) if m else ""


def _local_tensors(v: Any) -> list[tuple[str, Any]]:
    """``v`` itself, or the tensors directly inside a local tuple/list/dict (``state[0]``)."""
    if is_tensor(v):
        return [("", v)]
    kind = _tree.container_kind(v)
    if kind not in ("tuple", "list", "dict", "namedtuple"):
        return []
    out = []
    packed = is_packed(v)
    for step, child in _tree.iter_children(v, kind, 16):
        if is_tensor(child) and step.kind != "pos" and not (packed and step.key == "batch_sizes"):
            out.append((_tree._apply_step_code("", step), child))
    return out


def is_packed(v: Any) -> bool:
    """``v`` is torch's PackedSequence, whose ``batch_sizes`` are on the cpu wherever its data
    is, by design: never an operand that strays. NB: the type's own name and module only."""
    tp = type(v)
    return tp.__name__ == "PackedSequence" and str(tp.__dict__.get("__module__", "")) \
        .startswith("torch.nn.utils.rnn")


def is_module(v: Any) -> bool:
    import torch

    return issubclass(type(v), torch.nn.Module)


def is_tensor(v: Any) -> bool:
    """NB: ``type(v)``, never ``isinstance``: a proxy's ``__class__`` is user code."""
    import torch

    return issubclass(type(v), torch.Tensor)


def describe_tensor(t: Any, where: str, named: Named | None) -> Operand:
    named = named or Named(where, "", "unnamed", "")
    try:
        device, dtype, shape = tensor_header(t)
        return Operand(where, named, device, dtype.removeprefix("torch."), shape)
    except Exception:  # NB: exotic subclasses may refuse metadata reads
        return Operand(where, named, "?", "?", ())


_TRUST: list[Any] = []


def tensor_header(t: Any) -> tuple[str, str, tuple[int, ...]]:
    """Device, dtype and shape of ``t`` without user code: ``__torch_function__`` off, and read
    from the C header when its class redefines them (FakeTensor's own stay: torch's code)."""
    import torch

    from ...inspect._trust import Trust

    if not _TRUST:
        _TRUST.append(Trust(torch))
    with torch._C.DisableTorchFunctionSubclass():
        if _TRUST[0](type(t)):
            c: Any = torch._C.TensorBase
            return (str(c.device.__get__(t)), str(c.dtype.__get__(t)),
                    tuple(c.shape.__get__(t)))
        return str(t.device), str(t.dtype), tuple(t.shape)


def meta(t: Any) -> tuple[str, str, tuple[int, ...]] | None:
    """(device, dtype without "torch.", shape) of a tensor as :func:`tensor_header` reads it
    (no user code); None for anything else or a tensor that refuses."""
    if not is_tensor(t):
        return None
    try:
        device, dtype, shape = tensor_header(t)
    except Exception:
        return None
    return device, dtype.removeprefix("torch."), shape


# --- where things should be -----------------------------------------------------------------

def iter_params(m: Any, limit: int = 100_000) -> Iterator[Any]:
    """Parameters of ``m`` and its submodules, read from ``__dict__`` (no user code)."""
    todo, seen = [m], set()
    while todo and limit > 0:
        mod = todo.pop()
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        parts = _tree.module_parts(mod)
        for _name, p in parts.params:
            limit -= 1
            yield p
        todo.extend(c for _n, c in parts.children)


def majority_device(tensors: Iterable[Any]) -> str | None:
    count: dict[str, int] = {}
    for t in tensors:
        d = tensor_header(t)[0]
        count[d] = count.get(d, 0) + 1
    return max(count, key=count.__getitem__) if count else None


def namespace_data_devices(namer: Namer) -> dict[str, int]:
    """How many of the namespace's tensors (no grads, no optimizer state) are on each device:
    where the user's own data and objects are, read from the snapshot's records."""
    return _device_counts(namer, lambda role: role not in ("grad", "state", "opt_param"))


def namespace_param_device(namer: Namer) -> str | None:
    count = _device_counts(namer, "parameter".__eq__)
    return max(count, key=count.__getitem__) if count else None


def _device_counts(namer: Namer, counted: Any) -> dict[str, int]:
    """How many tensor records of the namespace's snapshot whose role is ``counted`` are on
    each device."""
    namer._build()
    snap = namer.snapshot
    count: dict[str, int] = {}
    for o in snap.objects if snap is not None else ():
        for t in o.tensors:
            if counted(t.role):
                count[t.device] = count.get(t.device, 0) + 1
    return count


def _for_targets(body: list[ast.stmt]) -> Iterator[str]:
    """Names bound by the ``for`` loops of a block, nested blocks included, functions' and
    classes' bodies not (their names are theirs)."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.For | ast.AsyncFor):
            yield from (n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _for_targets([b for b in inner if isinstance(b, ast.stmt)])
        for h in getattr(node, "handlers", ()) or ():
            yield from _for_targets(h.body)
