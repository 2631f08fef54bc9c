"""Who is who when a torch op fails: user-facing names, the module being run, the cell line.

Shared by the guard (which sees the op's arguments) and the post-mortem handler (which sees only a
traceback). Everything here runs on the failure path only, so it may take a snapshot; it never
runs user code: tensors and modules are matched to namespace paths *by identity*.
"""

from __future__ import annotations

import linecache
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import Any, NamedTuple

from ..inspect import _tree

CellFiles = Callable[[str], bool]
MAX_FRAMES = 200


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

    @property
    def scalar_cpu(self) -> bool:
        """0-dim CPU tensors mix with any device (PyTorch allows it)."""
        return self.shape == () and self.device == "cpu"

    def describe(self) -> str:
        shape = ", ".join(str(s) for s in self.shape)
        where = "" if self.where == self.named.name else f", {self.where}"
        return f"{self.named.name} ({self.dtype}[{shape}] on {self.device}){where}"


def default_cell_files(extra: Iterable[str] = ()) -> CellFiles:
    """Cell files as IPython and ipykernel name them, plus ``extra``; outside IPython, every
    file that is not part of Python or an installed package (the user's scripts)."""
    known = set(extra)
    shell = _shell()
    if shell is None:
        import sysconfig

        paths = sysconfig.get_paths()
        libs = tuple({paths["stdlib"], paths["purelib"], paths["platlib"]})
        return lambda fn: fn in known or not (fn.startswith(("<", *libs)) or fn.startswith(_HERE))
    fmap = getattr(getattr(shell, "compile", None), "_filename_map", None)

    def is_cell(filename: str) -> bool:
        return (filename in known or _ipython_cell(filename)
                or (type(fmap) is dict and filename in fmap))
    return is_cell


_KERNEL_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\][^/\\]+\.py$")


def _ipython_cell(filename: str) -> bool:
    """``<ipython-input-3-...>`` (terminal IPython) or ``/tmp/ipykernel_<pid>/<hash>.py``."""
    return filename.startswith("<ipython-input-") or _KERNEL_CELL.search(filename) is not None


def _shell() -> Any:
    import sys

    ipy = sys.modules.get("IPython")
    return ipy.get_ipython() if ipy is not None else None


def cell_label(filename: str) -> str:
    """``cell In[3]`` for an IPython cell file, the file's base name otherwise."""
    fmap = getattr(getattr(_shell(), "compile", None), "_filename_map", None)
    if type(fmap) is dict and filename in fmap:
        return f"cell In[{fmap[filename]}]"
    if _ipython_cell(filename):
        return "cell"
    return os.path.basename(filename)


# --- frames ---------------------------------------------------------------------------------

class Frame(NamedTuple):
    frame: FrameType
    lineno: int


_HERE = os.path.dirname(os.path.abspath(__file__))


def stack_frames(start: FrameType | None) -> list[Frame]:
    """Frames from ``start`` outwards (innermost first), skipping devicelens' own."""
    out: list[Frame] = []
    f = start
    while f is not None and len(out) < MAX_FRAMES:
        if not f.f_code.co_filename.startswith(_HERE):
            out.append(Frame(f, f.f_lineno or 0))
        f = f.f_back
    return out


def traceback_frames(tb: Any) -> list[Frame]:
    """Frames of a traceback, innermost first."""
    out: list[Frame] = []
    while tb is not None:
        out.append(Frame(tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out[::-1][:MAX_FRAMES]


def frame_locals(f: FrameType) -> dict[str, Any]:
    try:
        loc = f.f_locals
    except Exception:
        return {}
    return loc if isinstance(loc, dict) else dict(loc)


def module_stack(frames: list[Frame], module_type: type) -> list[Any]:
    """Modules being executed (``self`` of module methods), innermost first, each once."""
    out: list[Any] = []
    for fr in frames:
        s = frame_locals(fr.frame).get("self")
        if issubclass(type(s), module_type) and not any(s is m for m in out):
            out.append(s)
    return out


def cell_lines(frames: list[Frame], is_cell: CellFiles, current: str = "") -> list[str]:
    """``cell line 7 (in Net.forward): h = ...`` for the innermost and outermost cell frames."""
    # NB: the line that calls %%cuda_safe itself is IPython's, not the user's
    cells = [fr for fr in frames if is_cell(fr.frame.f_code.co_filename)
             and "run_cell_magic(" not in linecache.getline(fr.frame.f_code.co_filename,
                                                           fr.lineno)]
    if not cells:
        return []
    current = current or cells[-1].frame.f_code.co_filename  # NB: the cell being run
    picked = [cells[0]] if len(cells) == 1 else [cells[0], cells[-1]]
    return [_line(fr, current) for fr in picked]


def _line(fr: Frame, current: str) -> str:
    code = fr.frame.f_code
    where = cell_label(code.co_filename)
    if code.co_filename == current and where.startswith("cell"):
        where = "cell"
    fn = "" if code.co_name == "<module>" else f" (in {code.co_qualname})"
    src = linecache.getline(code.co_filename, fr.lineno).strip()
    return f"{where} line {fr.lineno}{fn}: {src}"


# --- names by identity ----------------------------------------------------------------------

class Namer:
    """id(tensor) -> :class:`Named`, id(module) -> path, built lazily from one snapshot."""

    def __init__(self, namespace: dict[str, Any], frames: Sequence[Frame] = (),
                 is_cell: CellFiles | None = None) -> None:
        self.ns = namespace
        self.frames = frames
        self.is_cell = is_cell or default_cell_files()
        self._tensors: dict[int, Named] | None = None
        self._modules: dict[int, str] = {}
        self._keep: list[Any] = []  # NB: keeps every mapped object alive, so ids stay unique
        self.snapshot: Any = None

    def _build(self) -> dict[int, Named]:
        if self._tensors is not None:
            return self._tensors
        from ..inspect import take_snapshot

        self._tensors = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NB: reading .grad of a non-leaf warns; harmless
            self.snapshot = snap = take_snapshot(self.ns)
        # NB: module paths first: `w = model.fc.weight` is still named model.fc.weight.
        records = sorted((t for o in snap.objects for t in o.tensors if t.role != "opt_param"),
                         key=lambda t: 0 if t.role in ("parameter", "buffer", "attribute") else 1)
        for rec in records:
            obj = self._resolve(rec.ref)
            if obj is not None and id(obj) not in self._tensors:
                code = _tree.code_for(rec.ref) if _tree.has_code(rec.ref) else ""
                self._tensors[id(obj)] = Named(rec.path, code, rec.role, str(rec.ref[0].key))
        for o in snap.objects:
            for m in o.modules:
                obj = self._resolve(m.ref)
                if obj is not None:
                    self._modules.setdefault(id(obj), m.path)
        self._add_locals()
        return self._tensors

    def _resolve(self, ref: _tree.Ref) -> Any:
        try:
            obj = _tree.resolve(self.ns, ref)
        except LookupError:
            return None
        self._keep.append(obj)
        return obj

    def _add_locals(self) -> None:
        assert self._tensors is not None
        # NB: user code first: `h0` in Net.forward, not `hx` in torch's GRU.forward
        frames = sorted(self.frames, key=lambda fr: not self.is_cell(fr.frame.f_code.co_filename))
        for fr in frames:
            f = fr.frame
            if f.f_globals is self.ns and f.f_code.co_name == "<module>":
                continue  # the cell's top level: its locals are the namespace
            loc = frame_locals(f)
            is_fn = self.is_cell(f.f_code.co_filename) or "self" in loc
            for k, v in loc.items():
                if is_fn and k != "self" and is_tensor(v) and id(v) not in self._tensors:
                    self._keep.append(v)
                    self._tensors[id(v)] = Named(f"`{k}` in {f.f_code.co_qualname}", "",
                                                 "local", "")

    def tensor(self, t: Any) -> Named | None:
        """The name of ``t``, or of the tensor it is a view of (``model.pos_emb[...]``)."""
        known = self._build()
        named = known.get(id(t))
        if named is None:
            try:
                base = t._base
            except Exception:
                return None
            if base is not None and id(base) in known:
                b = known[id(base)]
                return b._replace(name=f"{b.name}[...]")
        return named

    def module(self, m: Any) -> str | None:
        self._build()
        return self._modules.get(id(m))

    def module_label(self, m: Any) -> str:
        path = self.module(m)
        kind = type(m).__name__
        return f"{path} ({kind})" if path else f"a {kind} not reachable from the namespace"


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

    from ..inspect._trust import Trust

    if not _TRUST:
        _TRUST.append(Trust(torch))
    with torch._C.DisableTorchFunctionSubclass():
        if _TRUST[0](type(t)):
            c: Any = torch._C.TensorBase
            return (str(c.device.__get__(t)), str(c.dtype.__get__(t)),
                    tuple(c.shape.__get__(t)))
        return str(t.device), str(t.dtype), tuple(t.shape)


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


def expected_device(operands: list[Operand], stack: list[Any], forced: str | None,
                    ns_device: str | None) -> str:
    """Where the op's tensors should be: --device, else the running model's parameters, else
    the namespace's parameters, else the one accelerator among the arguments."""
    if forced:
        return forced
    devices = list(dict.fromkeys(o.device for o in operands if not o.scalar_cpu))
    for m in reversed(stack):  # NB: outermost first: a stray submodule is the culprit
        d = majority_device(iter_params(m))
        if d is not None:
            if d in devices:
                return d
            break
    if ns_device in devices:
        return ns_device
    accel = [d for d in devices if d != "cpu"]
    if len(accel) == 1:
        return accel[0]
    return devices[0] if devices else "cpu"


def namespace_param_device(namer: Namer) -> str | None:
    namer._build()
    snap = namer.snapshot
    if snap is None:
        return None
    count: dict[str, int] = {}
    for o in snap.objects:
        for t in o.tensors:
            if t.role == "parameter":
                count[t.device] = count.get(t.device, 0) + 1
    return max(count, key=count.__getitem__) if count else None


def expected_dtype(operands: list[Operand], stack: list[Any]) -> str:
    """The floating dtype the op's tensors should share: the running model's, else the
    parameters' among the arguments, else the most common (ties go to the default dtype)."""
    import torch

    floats = [o for o in operands if o.dtype.startswith(("float", "bfloat")) and o.shape != ()]
    dts = list(dict.fromkeys(o.dtype for o in floats))
    for m in reversed(stack):
        params = [p for p in iter_params(m) if p.is_floating_point()]
        if params:
            d = max(_counts(str(p.dtype).removeprefix("torch.") for p in params).items(),
                    key=lambda kv: kv[1])[0]
            if d in dts:
                return d
            break
    for o in floats:
        if o.named.role in ("parameter", "buffer"):
            return o.dtype
    default = str(torch.get_default_dtype()).removeprefix("torch.")
    counts = _counts(o.dtype for o in floats)
    return max(dts, key=lambda d: (counts[d], d == default)) if dts else default


def _counts(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return out
