"""Post-mortem for every cell: explain device/dtype mismatch errors where they are shown.

An IPython custom exception handler (zero cost until something fails) recognises the mismatch
families in the error text, then reads the traceback's frames — the innermost module ``self``
gives the layer, the user's frame gives the operands — plus a snapshot, and appends a diagnosis
to the original traceback. It chains with a handler installed before it and never re-executes
user code; if the diagnosis itself fails, the original traceback is shown unchanged.
"""

from __future__ import annotations

import re
import sys
import time
import traceback
from dataclasses import replace
from typing import Any

from .diagnosis._context import Failure
from .diagnosis._diagnosis import diagnose
from .diagnosis._messages import GENERAL_DTYPE, Match, match
from .diagnosis._mismatch import MismatchReport
from .families._foreach import refused
from .families._special import special
from .running import _awaits
from .running._frames import CellFiles, Frame, default_cell_files, traceback_frames


def classify(exc: BaseException) -> Match | None:
    """Which mismatch family ``exc`` belongs to (a row of :mod:`._messages`); ``None`` for
    everything else."""
    if "torch" not in sys.modules or not isinstance(exc, Exception):
        return None  # NB: without torch imported there is no tensor to blame
    guard = sys.modules.get("devicelens.guard.running._mode")
    if guard is not None and isinstance(exc, guard.DeviceMismatchError):
        return None  # already explained by %%cuda_safe
    return match(str(exc))


def diagnose_exception(exc: BaseException, tb: Any, namespace: dict[str, Any],
                       is_cell: CellFiles | None = None) -> MismatchReport | None:
    """Explain a mismatch error from its traceback; ``None`` when it is not one."""
    fam = classify(exc)
    # NB: a cause that is a mismatch itself is diagnosed, even where the error shown reads as
    # one too: that restates it (torchmetrics' "Encountered different devices in metric
    # calculation", raised from the op's error), and only the cause's frames reach the op
    wrapped = _wrapped_mismatch(exc) if exc.__cause__ is not None else None
    if wrapped is not None:
        exc, fam = wrapped
    elif fam is None:
        return None
    is_cell = is_cell or default_cell_files()
    frames = traceback_frames(tb) if wrapped is None else _joined_frames(exc, tb)
    failure = Failure(fam.kind, fam.rule, "", fam.expected, fam.devices, str(exc))
    grouped = refused(frames) if fam.rule.key == "foreach" else None
    if grouped is not None:
        # NB: the message names no tensor: the ones torch's check refused are the operands
        kind, want, tensors = grouped
        failure = failure._replace(kind=kind, devices=())
        report = diagnose(failure, frames, namespace, is_cell, tensors=tensors,
                          forced=want if kind == "device" else None)
    else:
        report = diagnose(failure, frames, namespace, is_cell)
    if not report.culprits and fam.rule.role == "target" and fam.rule.key == "target_long":
        # NB: "expected scalar type Long but found Float" is a loss's target in NLL, and any
        # op's mixed operands elsewhere (``matmul(adj_long, x)``): the row for a target that
        # finds none gives way to the general one
        other = Failure("dtype", GENERAL_DTYPE, "", "", fam.devices, str(exc))
        again = diagnose(other, frames, namespace, is_cell)
        if again.culprits:
            failure, report = other, again
    if fam.rule.key == "byte_index" and not report.culprits:
        return None  # NB: a bool mask of the wrong shape: a shape bug, no dtype to mend
    report = special(report, failure, frames, namespace, is_cell)
    note, fix = _autograd_note(str(exc), namespace)
    if note:
        report = replace(report, notes=(*report.notes, note), fixes=(*report.fixes, fix))
    if wrapped is not None:
        report = replace(report, notes=(
            *report.notes, "the error shown wraps this mismatch, raised as its cause"))
    return report


#: how far down a chain of wrapped errors the cause is looked for
MAX_CHAIN = 5


def _wrapped_mismatch(exc: BaseException) -> tuple[BaseException, Match] | None:
    """The mismatch a library caught and raised again as an error of its own (baal's "CUDA ran
    out of memory while BaaL tried to replicate data", raised from the device error), with its
    family; None where the chain holds none. NB: ``__cause__`` only (``raise ... from e``, a
    deliberate wrapper): an error that merely happened while another was handled (its
    ``__context__``: a fallback inside torch, a cleanup) is no restatement of that one."""
    seen = {id(exc)}
    for _ in range(MAX_CHAIN):
        nxt = exc.__cause__
        if nxt is None or id(nxt) in seen:
            return None
        seen.add(id(nxt))
        exc = nxt
        fam = classify(exc)
        if fam is not None:
            return exc, fam
    return None


def _joined_frames(cause: BaseException, tb: Any) -> list[Frame]:
    """The frames of a wrapped mismatch, innermost first: its own traceback (from the op to the
    frame that caught it), then the frames outside that one, which only the error shown has
    (up to the user's cell)."""
    inner = traceback_frames(cause.__traceback__)
    outer = traceback_frames(tb)
    caught = inner[-1].frame if inner else None
    at = next((i for i, fr in enumerate(outer) if fr.frame is caught), -1)
    return [*inner, *outer[at + 1:]]


_GRAD_FN = re.compile(r"Function (\w+?)Backward\d* returned an invalid gradient at index (\d+) - "
                      r"expected (?:device|type|dtype) (\S+) but got (\S+)")
_HOOK = re.compile(r"hook '([^']+)' has changed the type of value \(was (\S+) got (\S+)\)")


def _autograd_note(text: str, ns: dict[str, Any]) -> tuple[str, str]:
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
    from .running._frames import cell_label

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

    types = tuple(dict.fromkeys((*prev_types, RuntimeError, ValueError, IndexError, TypeError)))
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
    if report is not None:
        report = rehearsed(report, tb, shell.user_ns)
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


def outer_cell(tb: Any, is_cell: CellFiles) -> Frame | None:
    """The outermost frame of ``tb`` that runs a cell's (a script's) top level: the failing
    cell, its line, its namespace. NB: every frame is looked at, however deep the stack."""
    try:
        return next((Frame(f, line) for f, line in traceback.walk_tb(tb)
                     if f.f_code.co_name == "<module>" and is_cell(f.f_code.co_filename)), None)
    except Exception:
        return None


def rehearsed(report: MismatchReport, tb: Any, ns: dict[str, Any],
              is_cell: CellFiles | None = None) -> MismatchReport:
    """``report`` once its fix was rehearsed on a copy of the failing cell (:mod:`.rehearsal`).

    NB: never raises; a failure of a cell outside a notebook cell (a module of the user's) is
    not rehearsed, and says so.
    """
    from .rehearsal import Cell, seconds, verify

    is_cell = is_cell or default_cell_files()
    frame = outer_cell(tb, is_cell)
    if frame is None:
        return replace(report, verdict="not verified: only a notebook cell is rehearsed")

    def run(code: Any, namespace: dict[str, Any]) -> None:
        _awaits.run(code, namespace, own_loop=True)  # NB: in the sandbox's child

    def again(exc: BaseException, namespace: dict[str, Any]) -> MismatchReport | None:
        return diagnose_exception(exc, exc.__traceback__, namespace, is_cell)

    cell = Cell(frame.frame.f_code.co_filename, frame.lineno, run, tb)
    # NB: the whole rehearsal of one failure stays within twice one round's time limit: where
    # the dtypes began gets the first half at most, the failing line's diagnosis what is left
    start, limit = time.monotonic(), seconds()
    try:
        began = _where_it_began(report, cell, ns, is_cell, start + limit)
        if began is not None:
            earlier, guesses = began
            out = verify(earlier, replace(cell, guesses=guesses), ns, again, start + limit)
            # NB: only a fix of where they began that is the whole fix (no other culprit
            # added on the way) replaces the failing line's
            if out.verdict.startswith("verified") and _strays(out) <= _strays(earlier):
                from .rehearsal._probe import place

                return replace(out, notes=(*out.notes, (
                    "the dtypes first met here, promoted without an error; PyTorch raised "
                    f"later, at {place(report)}")))
        out = verify(report, cell, ns, again, start + 2 * limit)
        return _mixed_again(report, out, cell, ns, is_cell, again, start + 2 * limit) or out
    except Exception:  # NB: a rehearsal must never hide the diagnosis it proves
        return report


def _mixed_again(report: MismatchReport, out: MismatchReport, cell: Any, ns: dict[str, Any],
                 is_cell: CellFiles, again: Any, until: float) -> MismatchReport | None:
    """Where a fix that mends the data is undone by the cell itself (a loop that appends
    float64 points to ``x`` before the model reads it again; the failed cell left ``x``
    float64, which the fix mends): the guard, run after that fix, stops where the cell's own
    code mixes the dtypes, and the fix of that place, rehearsed from where the failure left
    things, is the whole fix. None where that is not so."""
    if report.kind != "dtype" or not out.verdict.startswith(
            "not verified: after this fix the cell still fails"):
        return None
    began = _where_it_began(report, cell, ns, is_cell, until, fixed=True)
    if began is None:
        return None
    from .rehearsal import verify

    earlier, guesses = began
    mended = verify(earlier, replace(cell, guesses=guesses), ns, again, until)
    if not mended.verdict.startswith("verified"):
        return None
    from .rehearsal._probe import place

    return replace(mended, notes=(*mended.notes, (
        f"PyTorch raised later, at {place(report)}; the cell mixes the dtypes here first, "
        "again on each pass: mending the data alone is undone")))


def _strays(report: MismatchReport) -> set[str]:
    """The culprits' names, less the user's handle on the code an edit changes."""
    return {c.named.name for c in report.culprits if c.device or c.named.role != "code"}


def _where_it_began(report: MismatchReport, cell: Any, ns: dict[str, Any], is_cell: CellFiles,
                    until: float, fixed: bool = False,
                    ) -> tuple[MismatchReport, tuple[Any, ...]] | None:
    """The place dtypes first mixed on the way to a dtype error, when the guard, running the
    cell again in the sandbox, stops earlier than PyTorch did (:mod:`.rehearsal._probe`);
    ``fixed``: run after ``report``'s own fix (the failed cell left its stray in the namespace,
    which the fix mends)."""
    if report.kind != "dtype" or not report.expected:
        return None
    from .rehearsal import Cell
    from .rehearsal._probe import first_mismatch, fix_units, place
    from .running._mode import DeviceMismatchError, make_guard

    def guarded(code: Any, namespace: dict[str, Any]) -> None:
        with make_guard(namespace, dtype=True, filename=cell.filename):
            _awaits.run(code, namespace, own_loop=True)

    def again(exc: BaseException, namespace: dict[str, Any]) -> MismatchReport | None:
        if isinstance(exc, DeviceMismatchError):
            return exc.report
        return diagnose_exception(exc, exc.__traceback__, namespace, is_cell)

    probe = Cell(cell.filename, cell.failing_line, guarded, cell.tb)
    found = first_mismatch(probe, ns, again, until,
                           fix_units(report, probe, ns) if fixed else ())
    if found is None:
        return None
    first = found[0]
    # NB: only a stop that names other culprits says more than the failing line's diagnosis
    if (first.kind, first.expected) != (report.kind, report.expected) or not first.culprits \
            or place(first) == place(report) or _strays(first) == _strays(report):
        return None
    return found


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
            outer = outer_cell(tb, is_cell)
            namespace = outer.frame.f_globals if outer is not None else {}
        return diagnose_exception(exc, tb, namespace, is_cell)
    except Exception:
        return None
