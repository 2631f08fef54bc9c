"""``--rehearse cuda:0``: the user's code run in the sandbox as on a machine with those GPUs
(:mod:`._simulate`), round after round. Each mismatch a round hits is kept, its fix goes into the
next round (as the user would apply it), and the rounds end when the code runs through, or where
the rehearsal cannot follow it (a value it does not have, an op it cannot simulate, a limit).

NB: nothing is reported clean that was not rehearsed: a stop says where, and what was skipped
(``backward()``, ``torch.save``) is listed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from types import TracebackType
from typing import Any

from ..diagnosis._edits import Edit
from ..diagnosis._mismatch import MismatchReport
from ..running._frames import CellFiles, cell_label
from ._apply import is_code
from ._attempt import Attempt, Explain, Runner, Unit, attempt
from ._placed import deferred, imports_edited, placed
from ._sandbox import run_forked

MAX_ROUNDS = 8


@dataclass(frozen=True)
class Code:
    """The code a rehearsal runs: a cell (or a script) in linecache, and how to run it."""

    filename: str
    run: Runner  # runs the compiled code in a namespace, under the guard
    explain: Explain  # the report of an error, or None when it is no mismatch
    is_user: CellFiles  # the user's files, where "how far it got" is read
    steps: int = 0  # stop after this many optimizer steps (0: no bound)
    prepare: Callable[[dict[str, Any]], None] | None = None  # in the child, before the code


@dataclass(frozen=True)
class Rehearsal:
    """What rehearsing the code on ``devices`` found (plain data; :meth:`text` for people)."""

    devices: tuple[str, ...]
    found: tuple[MismatchReport, ...] = ()  # each mismatch, in the order the rounds hit them
    stop: str = ""  # why the rehearsal could not follow the code to its end ('' when it did)
    where: str = ""  # "cell In[4] line 7", where it stopped
    code: str = ""  # that line's code
    skipped: tuple[tuple[str, str], ...] = ()  # (where, what) the simulation did not run
    steps: int = 0  # optimizer steps rehearsed
    by_steps: bool = False  # the run ended at --steps
    on_device: bool = True  # some tensor reached a simulated device

    @property
    def clean(self) -> bool:
        """The code ran to its end (or to ``--steps``) without a mismatch."""
        return not self.found and not self.stop

    def text(self) -> str:
        on = ",".join(self.devices)
        out = []
        if self.found:
            n = len(self.found)
            out.append(f"rehearsed on {on}: the GPU run would hit {n} mismatch"
                       f"{'es' * (n != 1)}")
            out += [f"{i}. {r.text()}" for i, r in enumerate(self.found, 1)]
        elif not self.stop:
            out.append(f"rehearsed on {on}: no device or dtype mismatch")
        if self.stop:
            code = f": `{self.code}`" if self.code else ""
            head = "then " if self.found else f"on {on}, "
            out.append(f"{head}rehearsed up to {self.where or 'the start'}{code}")
            out.append(f"  stopped: {self.stop}; what follows was not rehearsed")
        out += self._notes()
        return "\n".join(out)

    def _notes(self) -> list[str]:
        out = [f"  not rehearsed: {where}: {what}" for where, what in self.skipped]
        if self.by_steps:
            out.append(f"  stopped after {self.steps} training step{'s' * (self.steps != 1)} "
                       f"(--steps), at {self.where}: what follows was not rehearsed")
        if not self.on_device and not self.found:
            out.append(f"  note: no tensor reached {','.join(self.devices)}: the code kept "
                       "everything on the cpu (a device chosen in an earlier cell, on this "
                       "machine?)")
        return out


def rehearse(code: Code, ns: dict[str, Any], devices: tuple[str, ...],
             limit: float) -> Rehearsal:
    """Rehearse ``code`` in copies of ``ns`` on ``devices`` until it runs or must stop.

    ``limit``: seconds for one round (the whole stays within 3x). NB: never raises.
    """
    try:
        return _rehearse(code, ns, devices, limit)
    except Exception as e:
        return Rehearsal(devices, stop=f"the rehearsal failed ({type(e).__name__}: {e})")


def _rehearse(code: Code, ns: dict[str, Any], devices: tuple[str, ...],
              limit: float) -> Rehearsal:
    _warm()
    deadline = time.monotonic() + 3 * limit
    units: list[Unit] = []
    found: list[MismatchReport] = []
    for _ in range(MAX_ROUNDS):
        left = min(limit, deadline - time.monotonic())
        if left < 0.5:
            return _stopped(devices, found, f"the rehearsal ran out of its {3 * limit:g} s")
        out = run_forked(partial(_round, list(units), code, ns, devices), left)
        if out.problem:
            return _stopped(devices, found, _crash(out.problem))
        a, trace = out.value
        if a.report is None:
            return _result(devices, found, a, trace)
        if found and _site(a.report) == _site(found[-1]):
            why = ("the fix above, applied as printed before the code runs, did not clear it "
                   "(it may have to run after a line of the code)")
            return _stopped(devices, found, why, trace, verdict=False)
        new = [u for u in _units(a.report, code.filename, trace.lines) if u not in units]
        if not new:
            # NB: advice, not code (`h` moved before a call): the failing line's operands,
            # moved, are tried one by one; the first that gets past the line is the fix
            attempt_with = partial(_try, code, ns, devices, units, left)
            guess = _guess(a.report, trace, code.filename, attempt_with)
            new = [_own(guess, code.filename)] if guess is not None else []
            if guess is not None:
                a = replace(a, report=replace(a.report, edits=(*a.report.edits, guess)))
        found.append(a.report)
        if not new:
            why = "the fix above is advice, not code the rehearsal can apply"
            return _stopped(devices, found, why, trace, verdict=False)
        units += new
    return _stopped(devices, found, f"{MAX_ROUNDS} rounds of fixes were not enough")


def _warm() -> None:
    """Import what ``FakeTensorMode`` imports, here in the parent, once: the first import of
    ``torch._dynamo`` writes temporary files, which the sandbox refuses (and it takes a second
    or more, which every round would pay again)."""
    import torch._dynamo  # noqa: F401


def _units(report: MismatchReport, filename: str, lines: list[int]) -> list[Unit]:
    """The report's fix as the user would apply it: its code (after the code's own binding of
    what it fixes, :mod:`._placed`) and its edits."""
    fixes = [placed(f, filename, lines) for f in report.fixes if is_code(f)]
    return list(dict.fromkeys([*fixes, *(_own(e, filename) for e in report.edits)]))


def _site(report: MismatchReport) -> tuple[str, ...]:
    """Where a mismatch happens and what it is, whatever the code's text there now is."""
    return (report.headline(), *(ln.split(":")[0] for ln in report.lines), *report.names)


def _own(edit: Edit, filename: str) -> Edit:
    """An edit of the rehearsed code's own file changes its text only: each round runs that
    text from its start, which defines the function anew (before it runs, it is not there)."""
    return edit._replace(qualname="") if edit.file == filename else edit


def _round(units: list[Unit], code: Code, ns: dict[str, Any],
           devices: tuple[str, ...]) -> tuple[Attempt, Any]:
    """In the child: the fixes so far, then the code, on the simulated devices."""
    from ._simulate import StepsDone, Trace, simulated, user_line

    trace = Trace(devices)
    where = user_line(code.is_user, partial(_label, code.filename))

    def run(compiled: Any, namespace: dict[str, Any]) -> None:
        try:
            code.run(compiled, namespace)
        except StepsDone as e:
            trace.where, trace.code = _at(e.__traceback__, where)
            trace.by_steps = True
        except BaseException as e:
            trace.where, trace.code = _at(e.__traceback__, where)
            trace.lines = _lines(e.__traceback__, code.filename)
            failure.append(e.__traceback__)
            raise

    failure: list[TracebackType | None] = []
    if code.prepare is not None:
        code.prepare(ns)
    now, later = deferred(units, code.filename)
    with simulated(trace, code.steps, where), imports_edited(later):
        a = attempt(now, code.filename, ns, run, code.explain, fake=True)
        if a.report is not None and failure and not any(map(is_code, a.report.fixes)):
            trace.guesses = _guesses(a.report, failure[-1], code.filename, trace.lines)
    return a, trace


def _guesses(report: MismatchReport, tb: TracebackType | None, filename: str,
             lines: list[int]) -> list[Edit]:
    """In the child, while the failure's frames are there: edits of the failing line's
    operands (:mod:`._candidates`) for the parent to try. NB: never raises."""
    from ._candidates import line_guesses, sites

    try:
        return [g.edit for i, site in enumerate(sites(tb, (filename, (lines or [0])[-1])))
                for g in line_guesses(report, *site, outer=i > 0)]
    except Exception:
        return []


def _guess(report: MismatchReport, trace: Any, filename: str,
           run: Callable[[Unit], Attempt | None]) -> Edit | None:
    """The first edit of the failing line's operands (found in the child) after which the
    code hits no mismatch and raises nothing (one that only moves the failure, such as a whole
    model moved to the other GPU, is no fix)."""
    edits: list[Edit] = trace.guesses
    for edit in edits:
        a = run(_own(edit, filename))
        if a is not None and a.report is None and not a.error:
            return edit
    return None


def _try(code: Code, ns: dict[str, Any], devices: tuple[str, ...], units: list[Unit],
         limit: float, unit: Unit) -> Attempt | None:
    out = run_forked(partial(_round, [*units, unit], code, ns, devices), limit)
    return None if out.problem else out.value[0]


def _label(current: str, filename: str) -> str:
    """``cell`` for the rehearsed cell itself (as the guard says it), else the file's label."""
    label = cell_label(filename)
    return "cell" if filename == current and label.startswith("cell") else label


def _at(tb: TracebackType | None, where: Callable[[Any], tuple[str, str] | None]
        ) -> tuple[str, str]:
    """The innermost line of the user's code in ``tb``, as (where, code)."""
    last = None
    while tb is not None:
        last, tb = tb, tb.tb_next
    found = where(last.tb_frame) if last is not None else None
    return found if found is not None else ("", "")


def _lines(tb: TracebackType | None, filename: str) -> list[int]:
    """The lines of ``filename`` in ``tb``, innermost first."""
    out = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            out.append(tb.tb_lineno)
        tb = tb.tb_next
    return out[::-1]


def _result(devices: tuple[str, ...], found: list[MismatchReport], a: Attempt,
            trace: Any) -> Rehearsal:
    """The last round, which hit no new mismatch: it ran through, or stopped short."""
    stop = ""
    if a.reached and not a.refused:
        stop = f"the rehearsal's time limit ({a.stopped}) ran out"
    elif a.problem:
        stop = a.problem if a.unit < 0 else f"the fix above could not be applied: {a.problem}"
    elif a.harm:
        stop = f"the fix above would do harm: {a.harm}"
    elif a.error:
        stop = _unsupported(a.error)
    if stop:
        # NB: a fix is verified only by a round that went past it: not by one that could not
        # apply it, found it harmful, or ran out of time somewhere unknown
        return _stopped(devices, found, stop, trace,
                        verdict=a.unit < 0 and not a.harm and not (a.reached and not a.refused))
    return Rehearsal(tuple(devices), _verified(found, devices), skipped=_skipped(trace),
                     steps=trace.steps, by_steps=trace.by_steps, where=trace.where,
                     code=trace.code, on_device=trace.on_device)


def _stopped(devices: tuple[str, ...], found: list[MismatchReport], why: str, trace: Any = None,
             verdict: bool = True) -> Rehearsal:
    reports = _verified(found[:-1], devices) + tuple(found[-1:])
    if verdict:
        reports = _verified(found, devices)
    if trace is None:
        return Rehearsal(tuple(devices), reports, stop=why)
    return Rehearsal(tuple(devices), reports, stop=why, where=trace.where, code=trace.code,
                     skipped=_skipped(trace), steps=trace.steps, on_device=trace.on_device)


def _verified(found: list[MismatchReport], devices: tuple[str, ...]) -> tuple[MismatchReport,
                                                                               ...]:
    """Each report whose fix let a later round go past it, marked so."""
    on = ",".join(devices)
    return tuple(replace(r, verdict=f"verified: rehearsed on {on}, the code goes past this "
                                    "line with this fix") for r in found)


def _skipped(trace: Any) -> tuple[tuple[str, str], ...]:
    return tuple(trace.skipped.items())


_NOT_LINKED = "not linked with support for cuda"


def _unsupported(error: str) -> str:
    """Why the code raised what it raised in the rehearsal, for the user."""
    if _NOT_LINKED in error:
        return ("an op that this CPU build of torch cannot run on a simulated GPU "
                f"({error})")
    return f"the code raised {error}"


def _crash(problem: str) -> str:
    if "crashed" in problem:
        return (f"{problem}: an op that a CPU build of torch cannot run on a simulated GPU "
                "(autograd, an RNN kernel) ended it")
    return problem
