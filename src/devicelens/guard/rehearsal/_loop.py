"""The rehearsal's rounds, in the parent: attempt the fix, complete it, keep it harmless, keep
it small, and mark it.

Each round forks a fresh copy of the user's state (never the last round's leftovers) and applies
every fix found so far at once, as the user would paste them: a fix that lets the cell reach
another mismatch gets that mismatch's fix added; a fix that would break a training link is left
out (or changed in place, for a trained Parameter); once the cell runs, each fix is dropped in
turn to see whether the cell needs it.
"""

from __future__ import annotations

import ast
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ..diagnosis._edits import Edit
from ..diagnosis._mismatch import MismatchReport
from ..running._frames import cell_label
from ._apply import is_code, python_text, source_lines
from ._attempt import Attempt, Explain, Runner, Unit, attempt, stack_in
from ._candidates import Guess, line_guesses, sites
from ._other_side import culprits_place, other_side
from ._sandbox import run_forked
from ._sources import named_from, running_objects, source_fixes

#: a round's time limit, seconds (``DEVICELENS_REHEARSAL_SECONDS``; 0 turns rehearsals off)
SECONDS = 10.0
MAX_ROUNDS = 6
MAX_PRUNES = 6


@dataclass(frozen=True)
class Cell:
    """The failing cell, as a rehearsal runs it again."""

    filename: str  # its file in linecache (an IPython cell's name)
    failing_line: int  # where it failed
    run: Runner  # runs the cell's code in a namespace (under the guard, for %%cuda_safe)
    tb: Any = None  # the failure's traceback: its frames' locals are let go in the sandbox
    guesses: tuple[Any, ...] = ()  # edits made where the mismatch was met, when that is not
    #                                in ``tb`` (the guard's earlier stop, :mod:`._probe`)


def seconds() -> float:
    try:
        return float(os.environ.get("DEVICELENS_REHEARSAL_SECONDS", SECONDS))
    except ValueError:
        return SECONDS


def verify(report: MismatchReport, cell: Cell, ns: dict[str, Any],
           explain: Explain, until: float | None = None) -> MismatchReport:
    """``report`` with a complete, harmless fix and its verdict (``verified: ...`` or ``not
    verified: ...``), within twice one round's time limit (or by ``until``, a
    ``time.monotonic()`` shared with other rehearsals of the same failure). NB: never raises;
    the original report is kept when anything goes wrong."""
    limit = seconds()
    if limit <= 0:
        return report
    try:
        out = _built_before(_verify(report, cell, ns, explain, limit, until), report)
        # NB: culprits the rehearsal cleared may have been the only namespace names
        same = out.edits == report.edits and out.culprits == report.culprits
        return out if same else _handled(out, cell, ns)
    except Exception as e:
        return replace(report, verdict=f"not verified: the rehearsal failed ({type(e).__name__})")


def _handled(report: MismatchReport, cell: Cell, ns: dict[str, Any]) -> MismatchReport:
    """``report`` whose rehearsed edit names the user's handle on the code it changes
    (:mod:`.._handle`), as a rule's edit does."""
    from ..diagnosis._blame import Namer
    from ..diagnosis._handle import with_handle
    from ..running._frames import traceback_frames

    def is_cell(filename: str) -> bool:
        return filename == cell.filename

    frames = traceback_frames(cell.tb)
    return with_handle(report, frames, Namer(ns, frames, is_cell), is_cell)


def _fake() -> bool:
    """Whether the sandbox runs the fix and the cell on fake tensors: the child of a process
    that uses CUDA cannot use CUDA itself (it is told what GPUs the parent sees)."""
    import sys

    if "torch" not in sys.modules:  # NB: no torch imported just to say so
        return False
    from ._gpus import seen

    return seen()


@dataclass
class _Outcome:
    """What the rounds of one candidate fix came to."""

    found: list[MismatchReport]  # the failing report, then each mismatch a round reached
    units: list[Unit]  # the fix as it stands
    verdict: str = ""
    why_out: list[str] = field(default_factory=list)  # notes on the lines left out
    left_out: list[Unit] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return self.verdict.startswith("verified")

    @property
    def simulated_only(self) -> bool:
        """Not verified only because a simulated device cannot run the cell (not the fix's
        fault): another fix would be judged by the simulator's limits, not by what is right."""
        return "a simulated device" in self.verdict or "the simulated device" in self.verdict


def _verify(report: MismatchReport, cell: Cell, ns: dict[str, Any], explain: Explain,
            limit: float, until: float | None = None) -> MismatchReport:
    # NB: the whole rehearsal, every round and every pruning run, stays within 2x one round's
    # limit: a user waits for it after every failing cell
    deadline = time.monotonic() + 2 * limit
    if until is not None:
        deadline = min(deadline, until)
    run = partial(_try, cell=cell, ns=ns, explain=explain, limit=limit, fake=_fake(),
                  deadline=deadline)
    by_data = _by_sources(report, cell, ns, run, deadline)
    if by_data is not None:
        return by_data
    units = _units(report, cell, ns)
    first = _rounds(report, units, run, cell, ns, deadline) if units else None
    if first is not None and not first.verified and not first.simulated_only:
        # NB: a fix of the whole (a batch's own .to(), which skips a nested dict) that did not
        # make the cell run: each named culprit moved or cast on its own, rehearsed
        each = _each_culprit(report, cell)
        other = _rounds(report, each, run, cell, ns, deadline) \
            if each and set(each) != set(units) else None
        if other is not None and other.verified:
            return _merged(report, other)
        wider = _like_data(report, cell, ns, run, deadline)
        if wider is not None:
            return wider
    if first is None or (not first.verified and (
            not first.simulated_only or all(not isinstance(u, str) for u in first.units))) \
            or _moves_a_model(first.units, report, ns) \
            or (first.verified and _across_a_split(first.units, report, ns)):
        # NB: the rules' fix did not make the cell run (or, an edit alone, could not be shown
        # to: the simulated device stopped it, as it stops MUNIT's ``mean[:, 0] = ...`` on the
        # edited maker's output; a move of the namespace's own objects, ``model.to(...)``,
        # stays as it is), or it moves a whole model the failing op did not run (the student,
        # after its input, for a teacher on another device): the failing line's own operands,
        # cast or moved, each rehearsed; one edit that runs wins
        where = sites(cell.tb, (cell.filename, cell.failing_line))
        split = first is not None and first.verified and _across_a_split(first.units, report, ns)
        sides = [r for r in ((report, _flipped(report)) if split else (report,)) if r]
        guesses = [(report, g) for g in cell.guesses] or [
            (r, g) for i, (file, line, qualname, scope) in enumerate(where) for r in sides
            for g in line_guesses(r, file, line, qualname, scope if qualname else ns,
                                  outer=i > 0)]
        again: list[tuple[MismatchReport, list[Unit]]] = []  # got past the line, then advice
        if first is not None and _advice_next(first):
            again.append((report, units))
        users = _users(cell)
        for side, guess in guesses:
            if time.monotonic() > deadline:
                break
            named = _renamed(side, guess, users)
            other = _rounds(named, [guess.edit], run, cell, ns, deadline)
            if other.verified and len(other.units) == 1:
                # NB: a report that named no culprit has one now (the local the guess casts):
                # the data it was made from is looked for as it was for a named one
                data = None if report.culprits else _by_sources(named, cell, ns, run, deadline)
                return data or _merged(named, other)
            if _advice_next(other) and len(other.units) == 1:
                again.append((named, [guess.edit]))
        # NB: no one edit is enough: the fixes that got past the failing line to a mismatch
        # whose own fix is advice, completed by that mismatch's guesses, line after line
        for named, start in again:
            if time.monotonic() > deadline:
                break
            other = _rounds(named, start, run, cell, ns, deadline, compound=True)
            if other.verified:
                other.units = _needed_edits(other.units, start, run, deadline)
                return _merged(named, other)
    if first is None or not first.verified:
        # NB: nothing that brings the data to the model runs (the running code itself puts
        # the data back where it was: an evaluator created for the cpu, on a model another one
        # moved to the GPU): the model, moved to where the data is, rehearsed
        model = other_side(report, cell.tb, ns)
        if model is not None and time.monotonic() < deadline:
            unit, culprit = model
            other = _rounds(report, [unit], run, cell, ns, deadline)
            if other.verified and other.units == [unit]:
                return replace(report, culprits=(culprit,), expected=culprits_place(report),
                               fixes=(unit,), edits=(), notes=(), verdict=other.verdict)
    if first is None:
        return replace(report, verdict="not verified: there is no fix as code to rehearse")
    return _merged(report, first)


def _like_data(report: MismatchReport, cell: Cell, ns: dict[str, Any],
               run: Callable[[list[Unit]], tuple[Attempt, str]],
               deadline: float) -> MismatchReport | None:
    """Culprits that are data the cell reads (pykan's ``dataset['train_input']``, float64),
    whose own fix got the cell past one op to the next datum of the same dtype
    (``dataset['test_input']``): every datum the cell reads with their wrong device or dtype,
    mended as :func:`_by_sources` mends a local's sources, and rehearsed. None where a culprit
    is anything but a namespace tensor."""
    if time.monotonic() > deadline or not report.culprits or not all(
            c.named.role == "tensor" and c.named.code for c in report.culprits):
        return None
    as_sources = replace(report, culprits=tuple(
        c._replace(named=c.named._replace(role="unnamed")) for c in report.culprits))
    return _by_sources(as_sources, cell, ns, run, deadline)


def _by_sources(report: MismatchReport, cell: Cell, ns: dict[str, Any],
                run: Callable[[list[Unit]], tuple[Attempt, str]],
                deadline: float) -> MismatchReport | None:
    """A culprit the namespace does not hold (a function's local) named by the cell's data it
    was made from, and that data mended: the fix where the user can make it, when rehearsing it
    shows the cell runs (:mod:`._sources`); None when it does not."""
    found = source_fixes(report, cell.filename, ns, running_objects(ns, _selves(cell)))
    if not found:
        return None
    start = replace(report, culprits=tuple(found.values()))
    out = _rounds(start, list(found), run, cell, ns, deadline)
    kept = [found[u] for u in out.units if isinstance(u, str) and u in found]
    if not out.verified or not kept:
        return None
    out.found[0] = named_from(report, kept, _cell_names(cell))
    return _merged(out.found[0], out)


def _selves(cell: Cell) -> list[tuple[Any, frozenset[str]]]:
    """The ``self`` of each frame the failure went through, with the attributes its code
    assigns (read off the bytecode: no source needed, none run)."""
    import dis

    from ..running._frames import frame_locals, traceback_frames

    out = []
    for f in traceback_frames(cell.tb):
        code = f.frame.f_code
        if "self" in code.co_varnames and "self" in (loc := frame_locals(f.frame)):
            out.append((loc["self"], frozenset(i.argval for i in dis.get_instructions(code)
                                               if i.opname == "STORE_ATTR")))
    return out


def _cell_names(cell: Cell) -> set[str]:
    """The names the failing cell's text mentions."""
    import linecache

    return set(re.findall(r"[A-Za-z_]\w*", "".join(linecache.getlines(cell.filename))))


def _rounds(report: MismatchReport, units: list[Unit], run: Callable[[list[Unit]],
            tuple[Attempt, str]], cell: Cell, ns: dict[str, Any], deadline: float,
            compound: bool = False) -> _Outcome:
    """Rehearse ``units``, adding each next mismatch's fix; with ``compound``, a mismatch whose
    fix is advice gets the guess that takes the cell past it (:func:`_further`)."""
    out = _Outcome([report], list(units))
    tried: list[Unit] = []  # in-place twins put in for a left-out line
    pending: tuple[Attempt, str] | None = None  # a round already run for ``out.units``
    for _ in range(MAX_ROUNDS):
        units = out.units
        a, problem = pending or run(units)
        pending = None
        bad = units[a.unit] if 0 <= a.unit < len(units) else None
        twins = [t for t in _in_place(bad, ns) if t not in out.left_out] if bad else []
        if not problem and bad is not None and (a.harm or (a.problem and (
                len(units) > 1 or twins))):
            # NB: one fix line that does harm or cannot run is left out (or replaced by its
            # in-place twin: ``.data`` cannot take a Parameter from cpu to meta, a swap can),
            # and the rest is rehearsed again
            out.left_out.append(bad)
            if bad not in tried and (a.harm or not twins):
                out.why_out.append(f"a fix that would do harm is not shown: {a.harm}" if a.harm
                                   else f"a fix line that cannot run is not shown: {a.problem}")
            tried += twins[:1]
            out.units = [*units[:a.unit], *twins[:1], *units[a.unit + 1:]]
            if out.units:
                continue
            out.verdict = "not verified: no fix found that runs and does no harm"
            break
        if a.refused and not problem and _past(a, cell, units):
            out.verdict = _verified(a, cell, units)
            break
        if problem or a.problem:
            fewer = _without_one(units, run, deadline) if a.problem and not problem else None
            if fewer is not None:  # NB: one fix line made the cell need what it cannot have
                out.units, pending = fewer[0], fewer[1]
                out.left_out.append(fewer[2])  # NB: what it moved was no culprit
                continue
            out.verdict = f"not verified: {problem or a.problem}"
            break
        if a.report is not None:
            again = _where(a.report) == _where(out.found[-1]) \
                and a.report.headline() == out.found[-1].headline()
            new = [u for u in _units(a.report, cell, ns) if u not in units
                   and u not in out.left_out and not (again and _edits_again(u, units))]
            # NB: only toward where the first mismatch wanted it: a guess chain that moves data
            # to one GPU and back to another chases the stray instead of finding it
            toward = (a.report.kind, a.report.expected) == (report.kind, report.expected)
            further = _further(a, units, run, deadline) \
                if compound and toward and not new else None
            if further is not None:
                # NB: the next mismatch's fix is advice: its own line's operand, moved or cast,
                # that takes the cell past it (to its end, or to another mismatch)
                guess, ahead = further
                out.found.append(_renamed(a.report, guess, _users(cell)))
                out.units, pending = [*units, guess.edit], ahead
                continue
            held = _held_elsewhere(units, ns) if again and not new else None
            if held is not None and not any(u in tried for u in held):
                tried += [u for u in held if u not in units]  # NB: once, made in place
                out.units = held
                continue
            if not new:
                out.verdict = ("not verified: after this fix the cell still fails: "
                               f"{a.report.headline()}")
                break
            out.found.append(a.report)
            out.units = units + new
            continue
        if a.error:
            out.verdict = f"not verified: after this fix the cell fails with {a.error}"
            break
        if not a.reached:  # NB: a cell the time limit stopped is not run again for pruning
            out.units = _smallest(units, run, deadline)
        out.verdict = _verified(a, cell, units)
        break
    else:
        out.verdict = "not verified: the fix did not settle within the rehearsal's rounds"
    return out


def _edits_again(unit: Unit, units: list[Unit]) -> bool:
    """Whether ``unit`` edits what an edit of ``units`` wrote. NB: asked where the same mismatch
    is met again after that edit (it mends what later runs make, not what an earlier cell made
    already): editing its own result again is no progress, only a longer line each round."""
    return isinstance(unit, Edit) and any(
        isinstance(u, Edit) and u.where == unit.where and u.new == unit.old for u in units)


#: how many guesses one advice-only mismatch met on the way gets (each costs a round)
MAX_FURTHER = 4


def _further(a: Attempt, units: list[Unit], run: Callable[[list[Unit]], tuple[Attempt, str]],
             deadline: float) -> tuple[Guess, tuple[Attempt, str]] | None:
    """The first of ``a``'s guesses after which the cell gets past ``a``'s mismatch: it runs, or
    stops at a mismatch of another line (never the same one, never another error), and that
    round's result; None when none does."""
    assert a.report is not None
    for guess in [g for g in a.guesses if g.edit not in units][:MAX_FURTHER]:
        if time.monotonic() > deadline:
            break
        b, problem = run([*units, guess.edit])
        if problem or b.problem or b.harm or b.error:
            continue
        if b.report is None or _where(b.report) != _where(a.report):
            return guess, (b, problem)
    return None


def _where(report: MismatchReport) -> str:
    """Where a mismatch happens (its innermost line's place, not its text: an edit changes it)."""
    return report.lines[0].split(": ")[0] if report.lines else ""


def _moves_a_model(units: list[Unit], report: MismatchReport, ns: dict[str, Any]) -> bool:
    """A ``fix:`` line of ``units`` moves or casts a whole ``nn.Module`` of ``ns`` other than
    the one the failing op ran in (``student.to("meta")``)."""
    import sys

    torch = sys.modules.get("torch")
    m = _NAME_AT_START.match(report.module)  # NB: ``model[1] (Scale)``: its model
    inside = m.group(0) if m else ""
    for u in units:
        if not isinstance(u, str):
            continue
        m = _MODULE_MOVE.match(u.strip())
        root = m.group(1) if m else ""
        if root and root != inside and torch is not None \
                and isinstance(ns.get(root), torch.nn.Module):
            return True
    return False


_NAME_AT_START = re.compile(r"[A-Za-z_]\w*")
_MODULE_MOVE = re.compile(r"^([A-Za-z_]\w*)(?:\.\w+)*\.(?:to|cuda|cpu|half|float|double|"
                          r"bfloat16)\(")


def _across_a_split(units: list[Unit], report: MismatchReport, ns: dict[str, Any]) -> bool:
    """A ``fix:`` line of ``units`` moves the namespace's own tensors or modules from one GPU to
    another, where the namespace's modules use both GPUs: a placement on purpose (a model split
    over two GPUs, an SAE beside its LLM), which the move undoes only until the next forward
    makes the stray again. The line where the parts meet is the fix that lasts. Not so for the
    user's own input data (:func:`_inputs_only`): its move is the fix users make."""
    from ..diagnosis._blame import is_module, iter_params, meta

    gpus = {c.device for c in report.culprits} | {report.expected}
    if report.kind != "device" or len(gpus) < 2 or gpus & {"cpu", "meta", "", "?"} \
            or not any(isinstance(u, str) for u in units) or _inputs_only(report, ns):
        return False
    used: set[str] = set()
    for value in list(dict.values(ns)):
        if is_module(value):
            # NB: read from ``__dict__``s, a bounded number: no user code runs
            used |= {header[0] for p in iter_params(value, limit=10_000)
                     if (header := meta(p)) is not None}
            if gpus <= used:
                return True
    return False


def _inputs_only(report: MismatchReport, ns: dict[str, Any]) -> bool:
    """Every culprit is data the user feeds, wholly on one device: a tensor the namespace holds
    by name, or an item of a batch whose tensors are all on that device (``labels`` for a split
    model's own loss). Moving it is the fix users make; a model's outputs spread over its GPUs
    (Mixtral's per-layer router logits), a module or what one holds are not such data."""
    from ..diagnosis._blame import _local_tensors, meta

    for c in report.culprits:
        value = dict.get(ns, c.named.root) if c.named.role == "tensor" and c.named.root else None
        if value is None:
            return False
        held = [t for _sub, t in _local_tensors(value)]  # NB: a tensor is its own one
        if not held or len({h[0] for t in held if (h := meta(t)) is not None}) != 1:
            return False
    return bool(report.culprits)


def _flipped(report: MismatchReport) -> MismatchReport | None:
    """``report`` read from the other side: the operands on the expected device are the ones to
    move, to where the culprits are (a mask on the LLM's GPU, taken to the SAE's)."""
    place = culprits_place(report)
    others = tuple(o for o in report.operands if o not in report.culprits
                   and o.device == report.expected)
    if not place or place == report.expected or not others:
        return None
    return replace(report, culprits=others, expected=place)


def _users(cell: Cell) -> frozenset[str]:
    """The functions of the user's cells the failure ran through (``generate``, Net.forward)."""
    return frozenset(q for _f, _ln, q, _s in sites(cell.tb, (cell.filename, cell.failing_line))
                     if q)


def _renamed(report: MismatchReport, guess: Guess,
             users: frozenset[str] = frozenset()) -> MismatchReport:
    """``report`` whose culprit with no name in the user's code is called by the operand the
    rehearsed edit rewrote (``x.double()``, not `input` in Linear.forward). A tensor the namespace
    holds that the edit leaves as it is gives way to the local the edit changes, when that local
    is it by all it shows (``beam.prev_ks[0]``, still float after ``prev_k.long()``: `prev_k` in
    Beam.advance); a report that names none gets that local (`gt_tensor` in f)."""
    # NB: only a local or a temporary, or such a tensor; a culprit named after the user's
    # object (``dist``) keeps its name even when its fix is an edit
    local = guess.local
    if not report.culprits:
        return replace(report, culprits=(local,)) if local is not None else report
    loose = [c for c in report.culprits if not c.named.code
             and c.named.name.startswith(("`", "a temporary"))]
    # NB: a local of the user's function is named as they know it: `idx` in Enc.forward
    named = local.named.name if local is not None and guess.operand.isidentifier() \
        else guess.operand
    if not loose and local is not None and guess.operand.isidentifier():
        loose = [c for c in report.culprits if c.named.code and c.named.role == "tensor"
                 and (c.device, c.dtype, c.shape) == (local.device, local.dtype, local.shape)]
        named = local.named.name
    if len(loose) != 1 or loose[0].named.name.startswith(f"`{guess.operand}` in "):
        return report  # NB: `x` in f, rewritten as ``x``: its name already says it
    m = re.fullmatch(r"`\w+` in (\S+)", loose[0].named.name)
    if m is not None and m.group(1) in users and m.group(1) == guess.edit.qualname:
        # NB: `dist` in Enc.forward, edited in Enc.forward: the user's own name where the fix
        # is; edited in a caller, the stray is named as it is there (the operand)
        return report
    if re.fullmatch(r"`\w+(?:\[[^`]*\])?\.[^`]+` in \S+", loose[0].named.name):
        # NB: a tensor an object holds, named through the local of the function that holds
        # the object (`processor.suppress_tokens` in Bark.generate, :meth:`Namer.held`): the
        # edit's operand (``self.suppress_tokens``) would say less
        return report
    one = loose[0]
    # NB: a namespace tensor that gave way to the local is no longer what the user holds: its
    # path goes too, and the object whose code has the edit is named instead (:mod:`.._handle`)
    held = {} if one.named.name.startswith(("`", "a temporary")) else {"code": "", "root": ""}
    return replace(report, culprits=tuple(
        c._replace(named=c.named._replace(name=named, **held)) if c is one else c
        for c in report.culprits))


def _try(units: list[Unit], *, cell: Cell, ns: dict[str, Any], explain: Explain, limit: float,
         fake: bool, deadline: float) -> tuple[Attempt, str]:
    left = deadline - time.monotonic()
    if left < min(limit, 0.5):
        return Attempt(), f"the rehearsal ran out of its {2 * limit:g} s"
    limit = min(limit, left)
    out = run_forked(lambda: attempt(units, cell.filename, ns, cell.run, explain, fake, cell.tb),
                     limit)
    if out.problem:
        return Attempt(), out.problem
    return out.value, ""


def _built_before(out: MismatchReport, report: MismatchReport) -> MismatchReport:
    """``out`` whose fix is an edit of one constructor alone and whose cell still fails as it
    did, said as what it is: the objects the namespace holds were built before the edit, so
    re-running the failing cell cannot show it working (a model loaded with
    ``device_map="auto"`` in ``__init__``); the edit takes effect once they are built again.
    NB: an edit of an earlier cell's own statement is run again by the rehearsal itself."""
    still = "not verified: after this fix the cell still fails: "
    built = _construction_only(list(out.edits)) if not out.fixes else ""
    if not built or out.verdict != still + report.headline():
        return out
    return replace(out, verdict=f"not verified: the edit is in {built}, which ran when the "
                                "object was built: it takes effect once the cell that builds "
                                "it runs again")


def _construction_only(units: list[Unit]) -> str:
    """``MiniGPT4.__init__`` where every unit of the fix edits that one constructor."""
    names = {u.qualname if isinstance(u, Edit) else "" for u in units}
    if len(names) != 1:
        return ""
    name = names.pop()
    return f"`{name}`" if name.endswith(".__init__") else ""


def _verified(a: Attempt, cell: Cell, units: Sequence[Unit] = ()) -> str:
    where = cell_label(cell.filename)
    if not a.reached:
        if not where.startswith("cell"):
            return (f"verified: rehearsed in a sandbox, {where} runs from its top to its end "
                    "after this fix")
        return "verified: rehearsed on a copy of this kernel's state, the cell runs after this fix"
    if _past(a, cell, units):
        how = (f"past the failing line for {a.stopped} with no mismatch" if not a.refused else
               f"past the failing line with no mismatch, to where {a.refused} (not rehearsed)")
        return f"verified up to {where} line {a.reached}: the rehearsal ran {how}"
    return f"not verified: the rehearsal stopped after {a.stopped} before the failing line"


def _past(a: Attempt, cell: Cell, units: Sequence[Unit] = ()) -> bool:
    """The run ``a`` stopped after it got past the line that failed: later in the cell's own
    top level, or later in the very function that failed (a training step defined in the cell
    or the script). NB: lines of different functions say nothing about which ran first, and the
    lines the fix's edits add to the file push its later lines down: never read as progress."""
    shift = sum(max(0, len(u.new) - len(u.old)) for u in units
                if isinstance(u, Edit) and u.file == cell.filename)
    failed = stack_in(cell.tb, cell.filename)
    if not failed or not a.where:
        return a.reached > cell.failing_line + shift
    if a.where[0][0] == failed[0][0] == "<module>" and a.where[0][1] > failed[0][1] + shift:
        return True
    name, line = failed[-1]
    return any(n == name and ln > line + shift for n, ln in a.where)


def _advice_next(out: _Outcome) -> bool:
    """The rounds stopped at a mismatch whose fix is advice (no code to add)."""
    return out.verdict.startswith("not verified: after this fix the cell still fails")


def _needed_edits(units: list[Unit], start: list[Unit],
                  run: Callable[[list[Unit]], tuple[Attempt, str]],
                  deadline: float) -> list[Unit]:
    """``units`` without each edit a guess added that the cell runs without (a guess that got
    past a line by moving an innocent operand, made needless by a later one)."""
    for u in [u for u in reversed(units) if isinstance(u, Edit) and u not in start]:
        if time.monotonic() > deadline:
            break
        fewer = [v for v in units if v is not u]
        a, problem = run(fewer)
        if not problem and a.ran and not a.reached and not a.harm:
            units = fewer
    return units


def _smallest(units: list[Unit], run: Callable[[list[Unit]], tuple[Attempt, str]],
              deadline: float) -> list[Unit]:
    """The fix without each ``fix:`` line the cell runs without (an innocent moved is no fix).

    NB: edits stay: an edit of the code that made a stray is the lasting fix even where a
    ``fix:`` line already mends this run's objects.
    """
    if len(units) < 2:
        return units
    for u in [u for u in reversed(units) if isinstance(u, str)][:MAX_PRUNES]:
        if time.monotonic() > deadline:
            break
        fewer = [v for v in units if v is not u]
        a, problem = run(fewer)
        if not problem and a.ran and not a.reached and not a.harm:
            units = fewer
    return units


def _without_one(units: list[Unit], run: Callable[[list[Unit]], tuple[Attempt, str]],
                 deadline: float) -> tuple[list[Unit], tuple[Attempt, str], Unit] | None:
    """The fix less one ``fix:`` line, that round and the line, where the cell then runs: a
    line that moved what the code reads on the host (lengths a mask is sized by, moved to the
    GPU: the cell then needs values there) is no part of the fix. None when no line is."""
    if len(units) < 2:
        return None
    for u in [u for u in reversed(units) if isinstance(u, str)][:MAX_PRUNES]:
        if time.monotonic() > deadline:
            break
        fewer = [v for v in units if v is not u]
        a, problem = run(fewer)
        if not problem and a.ran and not a.harm:
            return fewer, (a, problem), u
    return None


def _merged(report: MismatchReport, out: _Outcome) -> MismatchReport:
    # NB: an object whose only fix was left out (it could not run, or did harm) was no culprit
    units, found = out.units, out.found
    kept = {r for u in units for r in _roots(u)}
    cleared = {r for u in out.left_out for r in _roots(u)} - kept
    culprits = {c.named.name: c for r in found for c in r.culprits
                if (c.named.root or c.named.name) not in cleared}
    notes = [n for n in dict.fromkeys(n for r in found for n in r.notes)
             if not (set(re.findall(r"[A-Za-z_]\w*", n)) & cleared)]
    notes += list(dict.fromkeys(out.why_out))
    fixes = tuple(u for u in units if isinstance(u, str))
    if not units:
        fixes = tuple(f for f in report.fixes if f.startswith("#"))
    edits = _joined([u for u in units if isinstance(u, Edit)])
    named = tuple(culprits.values())
    if out.verified and fixes and not edits:
        named = tuple(c for c in named if _touched(c, fixes)) or named
    return replace(report, culprits=named, notes=tuple(notes), fixes=fixes,
                   edits=edits, verdict=out.verdict)


def _touched(c: Any, fixes: tuple[str, ...]) -> bool:
    """Whether a verified fix changes the culprit ``c``: it names its path or a path above it
    (``model.to(...)`` for ``model.fc.weight``), or rebinds its root (``batch = ...`` for
    ``batch[2]``). One it leaves alone was proven innocent by the rehearsal (PyKEEN's loop's
    ``heads``, on the cpu and moved where they are read, beside the Adagrad state that failed).
    NB: a culprit with no namespace path (a local, a handle on code) is kept."""
    n = c.named
    if not n.root or not n.code or n.role not in ("tensor", "attribute", "trapped"):
        return True
    text = "\n".join(fixes)
    if re.search(rf"(?m)^\s*{re.escape(n.root)}\s*=[^=]", text) or f"{n.root}.to(" in text:
        return True
    path = n.code
    while True:
        if path in text:
            return True
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= len(n.root):
            return False
        path = path[:cut]


def _joined(edits: list[Edit]) -> tuple[Edit, ...]:
    """Lines inserted after the same statement, as one edit."""
    out: dict[tuple[str, tuple[str, ...]], Edit] = {}
    for e in edits:
        key = (e.file, e.old)
        prev = out.get(key)
        if prev is not None and prev.new[:len(e.old)] == e.old == e.new[:len(e.old)]:
            out[key] = prev._replace(new=(*prev.new, *e.new[len(e.old):]))
        else:
            out.setdefault(key, e) if prev is None else out.setdefault((e.file, e.new), e)
    return tuple(out.values())


# --- units ---------------------------------------------------------------------------------

def _units(report: MismatchReport, cell: Cell, ns: dict[str, Any]) -> list[Unit]:
    """The report's fixes that are code, and its edits; a fix of a name the cell itself makes
    before the failing line becomes an edit of the cell (a namespace fix would be undone)."""
    out: list[Unit] = []
    for fix in report.fixes:
        if not is_code(fix):
            continue
        out.append(_into_cell(fix, cell) or fix)
    out += list(report.edits)
    return list(dict.fromkeys(out))


def _each_culprit(report: MismatchReport, cell: Cell) -> list[Unit]:
    """One fix line for each culprit the namespace holds by a path, as the diagnosis writes a
    culprit's own fix (``inputs['history_prompt']['semantic_prompt'] = ....to("cuda:0")``)."""
    from ..diagnosis._mismatch import fix_for

    fixes = [fix_for(c, report.kind, report.expected) for c in report.culprits
             if c.named.code and c.named.role in ("tensor", "grad")]
    return [_into_cell(f, cell) or f for f in dict.fromkeys(fixes) if is_code(f)]


def _roots(unit: Unit) -> set[str]:
    """The namespace names a ``fix:`` line changes: what it assigns and whose method it calls."""
    if not isinstance(unit, str):
        return set()
    try:
        body = ast.parse(unit).body
    except SyntaxError:
        return set()
    out: set[str] = set()
    for s in body:
        if isinstance(s, ast.Assign):
            out |= {r for r in map(_root, s.targets) if r}
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            func, args = s.value.func, s.value.args
            r = _root(func.value) if isinstance(func, ast.Attribute) else None
            if r in (None, "torch") and args:  # NB: torch.utils.swap_tensors(p, ...)
                r = _root(args[0])
            out |= {r} if r and r != "torch" else set()
    return out


def _into_cell(fix: str, cell: Cell) -> Edit | None:
    """``fix`` as lines inserted after the cell's last binding of the name it changes."""
    try:
        targets = [t for s in ast.parse(fix).body if isinstance(s, ast.Assign) for t in s.targets]
    except SyntaxError:
        return None
    roots = {r for r in map(_root, targets) if r is not None}
    if len(roots) != 1:
        return None
    lines = source_lines(cell.filename)
    try:
        tree = ast.parse(python_text(lines))
    except SyntaxError:
        return None
    root = roots.pop()
    binds = [s for s in ast.walk(tree) if isinstance(s, ast.Assign | ast.AnnAssign | ast.For)
             and (s.end_lineno or 0) < cell.failing_line
             and any(_binds(t, root) for t in _targets(s))]
    if not binds:
        return None
    last = max(binds, key=lambda s: s.end_lineno or 0)
    end = last.end_lineno or last.lineno
    pad = " " * last.col_offset
    if isinstance(last, ast.For):
        pad += "    "
        body_end = last.body[-1].end_lineno or end
        old = lines[last.lineno - 1:body_end]
        new = [*lines[last.lineno - 1:last.lineno], *[pad + ln for ln in fix.splitlines()],
               *lines[last.lineno:body_end]]
        first = last.lineno
    else:
        old = lines[last.lineno - 1:end]
        new = [*old, *[pad + ln for ln in fix.splitlines()]]
        first = last.lineno
    return Edit(f"{cell_label(cell.filename)} line {first}", tuple(old), tuple(new),
                cell.filename, "")


def _targets(s: ast.AST) -> list[ast.expr]:
    if isinstance(s, ast.Assign):
        return list(s.targets)
    if isinstance(s, ast.AnnAssign | ast.For):
        return [s.target]
    return []


def _binds(t: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for n in ast.walk(t))


def _root(t: ast.expr) -> str | None:
    while isinstance(t, ast.Subscript | ast.Attribute):
        t = t.value
    return t.id if isinstance(t, ast.Name) else None


_REBIND = re.compile(r"^([A-Za-z_]\w*) = \1(\.(?:to|half|float|double|bfloat16|cuda|cpu)\(.*\))$")


def _in_place(fix: Unit, ns: dict[str, Any], plain: bool = False) -> list[Unit]:
    """``p = p.half()`` for a trained Parameter ``p`` (``plain``: or for any tensor), changed
    in place instead: the same Parameter, still a leaf, still in its optimizer; the same tensor
    wherever else it is held. ``.data`` first (what ``Module.to`` does on a GPU);
    ``swap_tensors`` where ``.data`` cannot change the device type (cpu to meta). NB: a plain
    tensor's ``.data`` fix is only ever this function's (or a trained leaf's cast): its swap
    is offered whatever ``plain`` says."""
    import sys

    torch = sys.modules.get("torch")
    if not isinstance(fix, str) or torch is None:
        return []
    data = _DATA.match(fix)
    m = _REBIND.match(fix) or data
    t = ns.get(m.group(1)) if m is not None else None
    if m is None or not issubclass(type(t), torch.Tensor):  # NB: type(): no user __class__
        return []
    name, call = m.group(1), m.group(2)
    if issubclass(type(t), torch.nn.Parameter):
        swap = (f"torch.utils.swap_tensors({name}, torch.nn.Parameter({name}.detach(){call}, "
                f"requires_grad={name}.requires_grad))")
    elif plain or data:
        swap = (f"torch.utils.swap_tensors({name}, {name}.detach(){call}"
                f".requires_grad_({name}.requires_grad))")
    else:
        return []
    return [swap] if data else [f"{name}.data = {name}.data{call}", swap]


def _held_elsewhere(units: list[Unit], ns: dict[str, Any]) -> list[Unit] | None:
    """``units`` with each namespace rebind of a tensor (``mask = mask.to(d)``) made in place
    (``mask.data = mask.data.to(d)``): for a failure the rebind left as it was, because the
    failing code holds the tensor itself (a hook's closure, an object that kept it); None where
    no unit is such a rebind."""
    out = [(_in_place(u, ns, plain=True)[:1] or [u])[0] if isinstance(u, str)
           and _REBIND.match(u) else u for u in units]
    return out if out != units else None


_DATA = re.compile(r"^([A-Za-z_]\w*)\.data = \1\.data(\.(?:to|half|float|double|bfloat16|cuda|cpu)"
                   r"\(.*\))$")
