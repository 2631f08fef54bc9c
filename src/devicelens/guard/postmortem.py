"""Post-mortem for every cell: explain device/dtype mismatch errors where they are shown.

An IPython custom exception handler (zero cost until something fails) recognises the mismatch
families in the error text, then reads the traceback's frames — the innermost module ``self``
gives the layer, the user's frame gives the operands — plus a snapshot, and appends a diagnosis
to the original traceback. It chains with a handler installed before it and never re-executes
user code; if the diagnosis itself fails, the original traceback is shown unchanged.
"""

from __future__ import annotations

import ast
import linecache
import re
import sys
from typing import Any, NamedTuple

from ..inspect import _tree
from ._blame import (
    CellFiles,
    Frame,
    Namer,
    Operand,
    cell_lines,
    default_cell_files,
    describe_tensor,
    expected_device,
    expected_dtype,
    frame_locals,
    is_tensor,
    module_stack,
    namespace_param_device,
    traceback_frames,
)
from ._mismatch import Kind, MismatchReport, fixes_for, is_float

_DEV = r"(cuda:\d+|cuda|cpu|meta|mps|xpu:\d+|xpu)"
# (kind, key, pattern). NB: order matters; the first match wins.
_RAW: tuple[tuple[Kind, str, str], ...] = (
    ("device", "same_device", r"Expected all tensors to be on the same device"),
    ("device", "device_type", r"Expected object of device type (\w+) but got device type"),
    ("device", "expected_device", r"Tensor on device \S+ is not on the expected device "
                                  + _DEV),
    ("device", "conv_type", r"Input type \((torch\.(?:cuda\.)?)\w+\) and weight type "
                            r"\((torch\.(?:cuda\.)?)\w+\) should be the same"),
    ("device", "rnn", r"Input and parameter tensors are not at the same device"),
    ("device", "dataparallel", r"on device " + _DEV + r" \(device_ids\[0\]\)"),
    ("device", "foreach", r"Tensors of the same index must be on the same device"),
    ("device", "gradient", r"invalid gradient at index \d+ - expected device " + _DEV),
    ("device", "indices", r"indices should be either on cpu or on the same device"),
    ("device", "arg_device", r"to have the same device as tensor for argument"),
    ("device", "fake", r"FakeTensor Device Propagation"),
    ("index_dtype", "target", r"expected target dtype to be Long|expected scalar type Long"),
    ("index_dtype", "indices", r"'indices' to have one of the following scalar types"),
    ("index_dtype", "index", r"Expected dtype int64 for index"),
    ("dtype", "mat", r"mat1 and mat2 must have the same dtype"),
    ("dtype", "m1m2", r"expected m1 and m2 to have the same dtype"),
    ("dtype", "scalar_type", r"expected scalar type \w+ but found \w+"),
    ("dtype", "found", r"Found dtype \w+ but expected \w+"),
    ("dtype", "conv_dtype", r"Input type \(\w+\) and (?:bias|weight) type \(\w+\) should be"),
    ("dtype", "rnn_dtype", r"RNN input dtype|input must have the type"),
    ("dtype", "gradient_dtype", r"invalid gradient at index \d+ - expected (?:dtype|type)"),
    ("dtype", "hook", r"has changed the type of value"),
    ("dtype", "cast", r"result type \w+ can't be cast to the desired output type"),
)
FAMILIES: tuple[tuple[Kind, str, re.Pattern[str]], ...] = tuple(
    (k, key, re.compile(p)) for k, key, p in _RAW)
_INDEX_NAMES = {"target": ("target",), "indices": ("input", "indices"), "index": ("index",)}


class Family(NamedTuple):
    kind: Kind
    key: str
    expected: str  # a device the message itself names as expected, or ''


def classify(exc: BaseException) -> Family | None:
    """Which mismatch family ``exc`` belongs to; ``None`` for everything else."""
    if "torch" not in sys.modules or not isinstance(exc, RuntimeError | ValueError):
        return None  # NB: without torch imported there is no tensor to blame
    guard = sys.modules.get("devicelens.guard._mode")
    if guard is not None and isinstance(exc, guard.DeviceMismatchError):
        return None  # already explained by %%cuda_safe
    text = str(exc)
    for kind, key, pat in FAMILIES:
        m = pat.search(text)
        if m is not None:
            if key == "conv_type" and m.group(1) == m.group(2):
                kind = "dtype"  # same device, different tensor types
            # NB: "not on the expected device X" names the op's first tensor, not the model's
            expected = m.group(1) if key in ("dataparallel", "gradient") else ""
            return Family(kind, key, expected)
    return None


def diagnose_exception(exc: BaseException, tb: Any, namespace: dict[str, Any],
                       is_cell: CellFiles | None = None) -> MismatchReport | None:
    """Explain a mismatch error from its traceback; ``None`` when it is not one."""
    fam = classify(exc)
    if fam is None:
        return None
    import torch

    is_cell = is_cell or default_cell_files()
    frames = traceback_frames(tb)
    namer = Namer(namespace, frames, is_cell)
    stack = module_stack(frames, torch.nn.Module)
    ops = _candidates(frames, stack, namer, is_cell)
    expected, culprits = _judge(fam, str(exc), ops, stack, namer)
    notes, extra, covered = _findings(fam, namer, frames, is_cell, culprits)
    own = [c for c in culprits if c.named.root not in covered]  # NB: the finding's fix wins
    fixes = fixes_for(own, fam.kind, expected, ops) + extra
    note, fix = _autograd_note(fam, str(exc), namespace)
    if note:
        notes.append(note)
        fixes += (fix,)
    return MismatchReport(fam.kind, "", expected, tuple(ops), tuple(culprits),
                          namer.module_label(stack[0]) if stack else "",
                          tuple(cell_lines(frames, is_cell)), tuple(dict.fromkeys(fixes)),
                          tuple(notes))


def _judge(fam: Family, text: str, ops: list[Operand], stack: list[Any],
           namer: Namer) -> tuple[str, list[Operand]]:
    if fam.kind == "device":
        named = set(re.findall(_DEV, text))
        cands = [o for o in ops if not o.scalar_cpu and (not named or o.device in named)]
        exp = fam.expected or expected_device(cands, stack, None, namespace_param_device(namer))
        return exp, [o for o in cands if o.device != exp]
    if fam.kind == "dtype":
        floats = [o for o in ops if is_float(o.dtype) and o.shape != ()]
        exp = expected_dtype(floats, stack)
        return exp, [o for o in floats if o.dtype != exp]
    wanted = _INDEX_NAMES.get(fam.key, ())
    return "int64", [o for o in ops if is_float(o.dtype) and _local_name(o.where) in wanted]


def _local_name(where: str) -> str:
    """``target`` for an operand found as "`target` in cross_entropy"."""
    m = re.match(r"`(\w+)` in ", where)
    return m.group(1) if m else ""


def _candidates(frames: list[Frame], stack: list[Any], namer: Namer,
                is_cell: CellFiles) -> list[Operand]:
    """Tensors the failing op most likely saw: the innermost frame's locals, the running
    module's own tensors, and what the user's line names."""
    out: dict[int, Operand] = {}
    caller = next((fr.frame for fr in frames if not _internal(fr.frame.f_code.co_filename)), None)
    if caller is not None and caller.f_code.co_name != "<module>":
        f = caller
        for k, v in frame_locals(f).items():
            if k != "self" and is_tensor(v):
                out.setdefault(id(v), describe_tensor(v, f"`{k}` in {f.f_code.co_qualname}",
                                                      namer.tensor(v)))
    if stack:
        parts = _tree.module_parts(stack[0])
        for name, v in [*parts.params, *parts.buffers, *parts.attrs]:
            if is_tensor(v):
                out.setdefault(id(v), describe_tensor(v, f"{type(stack[0]).__name__}.{name}",
                                                      namer.tensor(v)))
    for v in _line_tensors(frames, is_cell):
        out.setdefault(id(v), describe_tensor(v, "on the cell line", namer.tensor(v)))
    return list(out.values())


def _internal(filename: str) -> bool:
    """torch's private machinery (``torch/_prims``, ``torch/_tensor.py``...): not an op caller."""
    parts = filename.replace("\\", "/").split("/")
    if "torch" not in parts:
        return False
    rest = parts[len(parts) - 1 - parts[::-1].index("torch") + 1:]
    return any(p.startswith("_") for p in rest) or rest[-1:] in (["overrides.py"], ["library.py"])


_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[(?:'[^'\]]*'|\"[^\"\]]*\"|\d+)\])*")


def _line_tensors(frames: list[Frame], is_cell: CellFiles) -> list[Any]:
    """Tensors named on the innermost cell line, resolved in that frame (no user code)."""
    cell = next((fr for fr in frames if is_cell(fr.frame.f_code.co_filename)), None)
    if cell is None:
        return []
    src = linecache.getline(cell.frame.f_code.co_filename, cell.lineno)
    scope = {**cell.frame.f_globals, **frame_locals(cell.frame)}
    out = []
    for text in dict.fromkeys(_CHAIN.findall(src)):
        try:
            node = ast.parse(text, mode="eval").body
            obj = _tree.resolve(scope, _ref(node))
        except (SyntaxError, LookupError, ValueError):
            continue
        if is_tensor(obj):
            out.append(obj)
    return out


def _ref(node: Any) -> tuple[Any, ...]:
    Step = _tree.Step
    steps = []
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Attribute):
            steps.append(Step("attr", node.attr))
        elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str | int):
            steps.append(Step("item", node.slice.value))
        else:
            raise ValueError("not a plain chain")
        node = node.value
    if not isinstance(node, ast.Name):
        raise ValueError("not a plain chain")
    return (Step("name", node.id), *reversed(steps))


def _findings(fam: Family, namer: Namer, frames: list[Frame], is_cell: CellFiles,
              culprits: list[Operand]) -> tuple[list[str], tuple[str, ...], set[str]]:
    """Snapshot findings about the objects on the failing line: notes, fixes, objects covered."""
    from ..analysis import DEVICE_KINDS, DTYPE_KINDS, diagnose

    if namer.snapshot is None:
        return [], (), set()
    kinds = DEVICE_KINDS if fam.kind == "device" else DTYPE_KINDS
    cell = next((fr for fr in frames if is_cell(fr.frame.f_code.co_filename)), None)
    line = linecache.getline(cell.frame.f_code.co_filename, cell.lineno) if cell else ""
    on_line = set(re.findall(r"[A-Za-z_]\w*", line))
    roots = {c.named.root for c in culprits if c.named.root}
    notes, fixes, covered = [], [], set()
    for f in diagnose(namer.snapshot):
        if f.kind in kinds and f.severity == "error" and set(f.objects) & (on_line | roots):
            notes.append(f.message)
            fixes.append(f.fix)
            covered |= set(f.objects)
    return notes[:3], tuple(fixes[:3]), covered


_GRAD_FN = re.compile(r"Function (\w+?)Backward\d* returned an invalid gradient at index (\d+) - "
                      r"expected (?:device|type|dtype) (\S+) but got (\S+)")
_HOOK = re.compile(r"hook '([^']+)' has changed the type of value \(was (\S+) got (\S+)\)")


def _autograd_note(fam: Family, text: str, ns: dict[str, Any]) -> tuple[str, str]:
    """Errors raised inside backward(): name the autograd.Function or hook that caused them."""
    m = _GRAD_FN.search(text)
    if m is not None:
        name, index, want, got = m.groups()
        where = _defined_at(ns.get(name))
        return (f"the backward() of {name}{where} returned input {index}'s gradient on {got}; "
                f"autograd needs it on {want}, like the input",
                f"# in {name}.backward: return each gradient on its input's device and dtype, "
                "e.g. grad.to(x.device) or torch.ones_like(x)")
    m = _HOOK.search(text)
    if m is not None:
        hook, was, got = m.groups()
        return (f"the tensor hook {hook!r} returned a {got} gradient for a {was} one",
                f"# in {hook}: return a gradient of the same device and dtype, e.g. "
                "new_grad.to(grad)")
    return "", ""


def _defined_at(obj: Any) -> str:
    """`` (cell In[3] line 7)`` for a class whose backward the user wrote; '' otherwise."""
    from ._blame import cell_label

    fn = getattr(obj, "__dict__", {}).get("backward") if isinstance(obj, type) else None
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    return f" ({cell_label(code.co_filename)} line {code.co_firstlineno})"


# --- the IPython handler --------------------------------------------------------------------

_INSTALLED: dict[int, tuple[tuple[type, ...], Any, Any]] = {}


def install(shell: Any) -> None:
    """Add the post-mortem to ``shell``, chaining with a custom handler already installed."""
    if id(shell) in _INSTALLED and shell.CustomTB is _INSTALLED[id(shell)][2]:
        return
    prev_types = tuple(shell.custom_exceptions or ())
    prev = shell.CustomTB

    def handler(sh: Any, etype: type, value: BaseException, tb: Any,
                tb_offset: int | None = None) -> None:
        _handle(sh, etype, value, tb, tb_offset, prev_types, prev)

    types = tuple(dict.fromkeys((*prev_types, RuntimeError, ValueError)))
    shell.set_custom_exc(types, handler)
    _INSTALLED[id(shell)] = (prev_types, prev, shell.CustomTB)


def uninstall(shell: Any) -> None:
    """Restore the handler that was there before; leave a handler installed later alone."""
    state = _INSTALLED.pop(id(shell), None)
    if state is not None and shell.CustomTB is state[2]:
        shell.custom_exceptions, shell.CustomTB = state[0], state[1]


def _handle(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: int | None,
            prev_types: tuple[type, ...], prev: Any) -> None:
    report = explain(value, tb, shell.user_ns)
    text = f"\ndevicelens: {report.text()}" if report is not None else None
    if prev_types and issubclass(etype, prev_types):
        prev(etype, value, tb, tb_offset=tb_offset)
        if text:
            print(text, file=sys.stderr)
        return
    if text is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return
    try:
        sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb
        if hasattr(value, "_render_traceback_"):
            stb = list(value._render_traceback_())
        else:
            stb = shell.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
        shell._showtraceback(etype, value, [*stb, text])
        if shell.call_pdb:
            shell.debugger(force=True)
    except Exception:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


# --- the seam every front end calls ---------------------------------------------------------

def explain(exc: BaseException, tb: Any = None, namespace: dict[str, Any] | None = None,
            is_cell: CellFiles | None = None) -> MismatchReport | None:
    """The diagnosis of ``exc`` as both front ends show it (the IPython handler, ``devicelens
    run``); ``None`` when it is no mismatch or the diagnosis itself failed.

    ``namespace`` defaults to the globals of the outermost user module frame in ``tb`` (a
    script's ``__main__``). NB: never raises: a diagnosis must never hide the original error.
    """
    tb = tb if tb is not None else exc.__traceback__
    try:
        if namespace is None:
            is_cell = is_cell or default_cell_files()
            namespace = next((fr.frame.f_globals for fr in reversed(traceback_frames(tb))
                              if fr.frame.f_code.co_name == "<module>"
                              and is_cell(fr.frame.f_code.co_filename)), {})
        return diagnose_exception(exc, tb, namespace, is_cell)
    except Exception:
        return None
