"""One attempt, inside the sandbox's child: apply the fix as printed, check it harms nothing,
run the cell again, and say what happened.

NB: runs only in the forked child (see :mod:`._sandbox`); everything it changes is the child's.
"""

from __future__ import annotations

import contextlib
import gc
import linecache
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Any, Union

from ..diagnosis._edits import Edit
from ..diagnosis._mismatch import MismatchReport
from ..running import _awaits
from ._apply import NotApplied, Texts, apply_edit, cell_code, run_fix
from ._as_on_a_gpu import fakes_checked_as_on_a_gpu, fakes_swap_as_they_move
from ._harm import harms, links
from ._sandbox import Refused, TimeUp

Unit = Union[str, Edit]  # noqa: UP007 - a runtime alias: one fix: a ``fix:`` block's code, or one ``edit:``
Runner = Callable[[CodeType, dict[str, Any]], None]
Explain = Callable[[BaseException, dict[str, Any]], MismatchReport | None]


@dataclass(frozen=True)
class Attempt:
    """What one rehearsal of a set of fixes found."""

    ran: bool = False  # the cell ran to its end
    problem: str = ""  # why the attempt says nothing either way
    harm: str = ""  # what the fix at ``unit`` would break
    unit: int = -1
    report: MismatchReport | None = None  # the next mismatch, when the cell still fails
    error: str = ""  # another error the cell then raised
    reached: int = 0  # the cell line the time limit stopped at (0: it did not stop it)
    where: tuple[tuple[str, int], ...] = ()  # (function, line) of each frame in the cell's file
    #                                           where it stopped, outermost first
    stopped: str = ""  # after how long ("10 s"), when the time limit stopped it
    refused: str = ""  # the side effect the sandbox stopped it at, when it ran that far
    guesses: tuple[Any, ...] = ()  # edits of the next mismatch's operands (``Guess``), found
    #                                 while its frames were there, where its own fix is advice


def attempt(units: Sequence[Unit], filename: str, ns: dict[str, Any], run: Runner,
            explain: Explain, fake: bool = False, tb: Any = None) -> Attempt:
    """Apply ``units`` in order to ``ns``, then run the cell in ``filename`` again."""
    _let_go(tb)
    _unshare(ns)
    with _fake_mode() if fake else contextlib.nullcontext(), fakes_swap_as_they_move(), \
            fakes_checked_as_on_a_gpu():
        return _attempt(units, filename, ns, run, explain)


def _attempt(units: Sequence[Unit], filename: str, ns: dict[str, Any], run: Runner,
             explain: Explain) -> Attempt:
    before = links(ns)
    texts = Texts(filename)
    for i, unit in enumerate(units):
        try:
            run_fix(unit, ns) if isinstance(unit, str) else apply_edit(unit, ns, texts)
        except NotApplied as e:
            return Attempt(problem=str(e), unit=i)
        except Refused as e:
            return Attempt(problem=f"{e} (in the fix)", unit=i)
        found = harms(before, ns)
        if found:
            return Attempt(harm=found[0], unit=i)
    for other in texts.rerun:
        try:
            _awaits.run(cell_code(texts.of(other), other), ns, own_loop=True)
        except Exception as e:
            return Attempt(problem=f"re-running the edited cell raises {type(e).__name__}: {e}")
    # NB: every edited file as it now reads: the edited functions' lines are these, and the
    # next mismatch's guesses quote them
    for name, edited in texts.lines.items():
        linecache.cache[name] = (0, None, [ln + "\n" for ln in edited], name)
    lines = texts.of(filename)
    try:
        code = cell_code(lines, filename)
    except SyntaxError as e:
        return Attempt(problem=f"the edited cell is not valid Python ({e.msg})")
    return _run(code, filename, ns, run, explain)


def _unshare(ns: dict[str, Any]) -> None:
    """Give every tensor in shared memory (``share_memory_()``, Hogwild, a DataLoader's) a
    private copy of its data: after a fork such memory is still the user's, and an in-place op
    (an optimizer step) would write through to it. NB: child only; same objects, new storage.
    """
    import torch

    from ...inspect._objects import optimizer_state, trained_params
    from ._harm import _loose_tensors

    tensors = [t for _p, t in _loose_tensors(ns)]
    for v in list(ns.values()):
        if isinstance(v, torch.nn.Module):
            tensors += [*v.parameters(), *v.buffers()]
        elif isinstance(v, torch.optim.Optimizer):
            # NB: through its ``__dict__``: a wrapper that subclasses Optimizer may keep no
            # ``state`` of its own (its ``param_groups`` a property of the optimizer inside)
            _groups, by_id = optimizer_state(v)
            tensors += [t for s in by_id.values() if isinstance(s, dict) for t in s.values()
                        if isinstance(t, torch.Tensor)]
            tensors += trained_params(v)
    with torch.no_grad():
        for t in tensors:
            if _shared(t):
                t.data = t.data.clone()


def _shared(t: Any) -> bool:
    try:
        return bool(t.device.type == "cpu" and t.is_shared())
    except Exception:  # NB: a subclass or fake tensor that cannot say: not shared
        return False


def _let_go(tb: Any) -> None:
    """Drop what the failure still holds, as the user's next cell finds it: the frames of its
    traceback keep the failed op's tensors alive, and a module that must swap its parameters
    (``Module.to`` between device types) refuses tensors held elsewhere. NB: child only."""
    sys.last_type = sys.last_value = sys.last_traceback = None
    sys.last_exc = None  # type: ignore[attr-defined,unused-ignore]
    while tb is not None:
        with contextlib.suppress(RuntimeError):  # NB: a frame still running is kept
            tb.tb_frame.clear()
        tb = tb.tb_next
    gc.collect()


def _run(code: CodeType, filename: str, ns: dict[str, Any], run: Runner,
         explain: Explain) -> Attempt:
    try:
        run(code, ns)
    except TimeUp as e:
        return Attempt(ran=True, reached=_line_in(e, filename), stopped=str(e),
                       where=stack_in(e.__traceback__, filename))
    except Refused as e:
        # NB: where the code got before it (a checkpoint written after the training step) says
        # how far the fix took it; the caller knows whether that is past the failing line
        return Attempt(problem=str(e), reached=_line_in(e, filename), refused=str(e),
                       where=stack_in(e.__traceback__, filename))
    except Exception as e:
        report = explain(e, ns)
        if report is not None:
            return Attempt(report=report,
                           guesses=_guesses(report, e.__traceback__, filename, ns))
        if type(e).__name__ in _NEEDS_VALUES or any(m in str(e) for m in _NO_DATA):
            return Attempt(problem=f"the cell then needs tensor values that a simulated device "
                                   f"does not have ({_first_line(e)})")
        if any(m in str(e) for m in _SIM_CANNOT):
            return Attempt(problem=f"the simulated device cannot run what the cell does next "
                                   f"({_first_line(e)})")
        return Attempt(error=f"{type(e).__name__}: {_first_line(e)}")
    return Attempt(ran=True)


#: errors of simulated tensors (FakeTensor, meta) where an op needs real values
_NEEDS_VALUES = frozenset({"DynamicOutputShapeException", "DataDependentOutputException",
                           "UnsupportedOperatorException", "GuardOnDataDependentSymNode"})
#: what torch cannot do on a fake ``cuda`` tensor even on meta twins: a CPU-only build (slicing,
#: ``copy_``), the child of a process that used CUDA (the real GPU, out of reach)
_SIM_CANNOT = ("not linked with support for cuda devices", "CUDA error: initialization error")
_NO_DATA = ("Cannot copy out of meta tensor", "cannot be called on meta tensors",
            "on meta tensors is not supported")


def _first_line(e: BaseException) -> str:
    """The error's first line, and its cause's: torch's ``Couldn't swap Linear.weight`` says
    why only in the exception it was raised from."""
    text = str(e).strip()
    first = text.splitlines()[0] if text else type(e).__name__
    cause = e.__cause__
    if cause is not None and str(cause).strip():
        first += f" ({type(cause).__name__}: {str(cause).strip().splitlines()[0]})"
    return first


def _guesses(report: MismatchReport, tb: Any, filename: str,
             ns: dict[str, Any]) -> tuple[Any, ...]:
    """Edits of the failing line's operands, from this failure's frames (:mod:`._candidates`),
    for a mismatch whose own fix edits no code: advice only, or, for devices, namespace lines
    that the running code may undo (a cache its ``_setup_cache`` makes again on the first GPU).
    NB: not for a dtype's namespace lines: there a chain of casts where the values are read
    would run before the fix of the code that mixes them (a loop that appends float64 points).
    Never raises."""
    from ._apply import is_code
    from ._candidates import line_guesses, sites

    if report.edits or (report.kind != "device" and any(map(is_code, report.fixes))):
        return ()
    try:
        top = [ln for name, ln in stack_in(tb, filename) if name == "<module>"]
        return tuple(g for i, (file, line, qualname, scope) in enumerate(sites(
                         tb, (filename, top[-1] if top else 0)))
                     for g in line_guesses(report, file, line, qualname,
                                           scope if qualname else ns, outer=i > 0))
    except Exception:
        return ()


def stack_in(tb: Any, filename: str) -> tuple[tuple[str, int], ...]:
    """(function, line) of each frame of ``tb`` in ``filename``, outermost first."""
    try:
        return tuple((fs.name, fs.lineno or 0) for fs in traceback.extract_tb(tb)
                     if fs.filename == filename)
    except Exception:
        return ()


def _line_in(exc: BaseException, filename: str) -> int:
    lines = [fs.lineno for fs in traceback.extract_tb(exc.__traceback__)
             if fs.filename == filename and fs.lineno]
    return lines[-1] if lines else 0


@contextlib.contextmanager
def _fake_mode() -> Iterator[None]:
    """Every tensor as a FakeTensor: same device, dtype, shape and strides, nothing computed.

    NB: the child of a process that uses CUDA cannot use CUDA itself; fake tensors need none, so
    there the fix and the cell both run under this mode, ``torch.cuda`` answers as the parent
    saw its GPUs (:func:`._gpus.as_seen`), and what torch's bindings would still ask of the real
    GPU (a device guard, a first allocation) is done on meta (:mod:`._twins`).
    """
    from torch._subclasses.fake_tensor import FakeTensorMode

    from ._gpus import as_seen
    from ._twins import MetaTwins, no_real_gpu

    no_real_gpu()
    as_seen()
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    mode.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None  # type: ignore[method-assign]
    with mode, MetaTwins():
        yield
