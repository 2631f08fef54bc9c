"""Fuzz: real moves and fixes on generated namespaces, with a failure injected at a random point:
out of memory at the k-th aten op, an exception or a Ctrl-C (a real SIGINT) at the k-th line of
the commit, a failing ``swap_tensors``, a KeyboardInterrupt while allocating, a ``SystemExit``
while allocating or committing, a KeyboardInterrupt inside the undo of a failed commit (issue 38,
items 3 and 12). Whatever happens:
no crash, a failed move changes nothing (ids, devices, dtypes, versions and values of every
tensor), a complete one leaves nothing more to move, and no user code runs (a tensor
subclass's own ``__torch_function__`` aside: moving it is its ``.to()``)."""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from torch.utils._python_dispatch import TorchDispatchMode

from devicelens import moves
from devicelens.jupyter._protocol import report_to_wire

from .checks import FIGURES, SCALE, assert_plain_json, fingerprint
from .hostile import CALLS
from .strategies import build, namespaces

# NB: ``make fuzz`` runs 20x longer than the suite's per-test timeout
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.timeout(300 * SCALE)]

INJECTIONS = ("none", "oom", "interrupt_alloc", "commit_error", "sigint_commit", "swap_error",
              "exit_alloc", "exit_commit", "interrupt_undo")
INTERRUPTS = ("interrupt_alloc", "sigint_commit", "interrupt_undo")
DONE = "devicelens: interrupted after the move completed; everything was moved"
UNDONE = "devicelens: the move was interrupted; nothing was changed"


class Injector:
    """Counts what it watches and fails once, at the ``k``-th occurrence; ``fired`` says if."""

    def __init__(self, how: str, k: int) -> None:
        self.how, self.k, self.n, self.fired = how, k, 0, False

    def tick(self) -> bool:
        self.n += 1
        if self.n == self.k and not self.fired:
            self.fired = True
        return self.n == self.k


class FailingOps(TorchDispatchMode):
    def __init__(self, inj: Injector, exc: type[BaseException]) -> None:
        super().__init__()
        self.inj, self.exc = inj, exc

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if self.inj.tick():
            raise self.exc(f"injected at aten op {self.inj.k} ({func})")
        return func(*args, **(kwargs or {}))


def _in_commit(frame: Any) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "commit" and frame.f_code.co_filename.endswith("_apply.py"):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def interrupted_undo(inj: Injector) -> Iterator[None]:
    """The k-th reference the commit writes fails (the names moved as columns are rebound
    together: one write); then every other undo step that writes a reference back or unswaps a
    tensor is cut short by a KeyboardInterrupt as it starts."""
    from devicelens.moves import _apply

    real = {name: getattr(_apply, name) for name in ("write_slot", "rebind", "_unswap")}
    undo_steps = [0]

    def wrap(name: str) -> Any:
        def step(*args: Any) -> Any:
            if inj.fired:
                undo_steps[0] += 1
                if undo_steps[0] % 2:
                    raise KeyboardInterrupt
            elif name in ("write_slot", "rebind") and inj.tick():
                raise RuntimeError("injected commit failure")
            return real[name](*args)
        return step

    for name in real:
        setattr(_apply, name, wrap(name))
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        for name, fn in real.items():
            setattr(_apply, name, fn)


@contextlib.contextmanager
def injected(inj: Injector) -> Iterator[None]:
    if inj.how in ("oom", "interrupt_alloc", "exit_alloc"):
        exc = {"oom": torch.OutOfMemoryError, "interrupt_alloc": KeyboardInterrupt,
               "exit_alloc": SystemExit}[inj.how]
        with FailingOps(inj, exc):
            yield
    elif inj.how == "interrupt_undo":
        with interrupted_undo(inj):
            yield
    elif inj.how in ("commit_error", "sigint_commit", "exit_commit"):
        def trace(frame: Any, event: str, arg: Any) -> Any:
            if not frame.f_code.co_filename.endswith("moves/_apply.py"):
                return None
            if event == "line" and _in_commit(frame) and inj.tick():
                if inj.how == "sigint_commit":
                    signal.raise_signal(signal.SIGINT)
                elif inj.how == "exit_commit":
                    raise SystemExit("injected exit")
                else:
                    raise RuntimeError("injected commit failure")
            return trace

        old = signal.signal(signal.SIGINT, signal.default_int_handler)  # NB: Python's own
        sys.settrace(trace)
        try:
            yield
        finally:
            sys.settrace(None)
            signal.signal(signal.SIGINT, old)
    elif inj.how == "swap_error":
        real = torch.utils.swap_tensors

        def flaky(*args: Any) -> Any:
            if inj.tick():
                raise RuntimeError("injected swap failure")
            return real(*args)

        torch.utils.swap_tensors = flaky
        try:
            yield
        finally:
            torch.utils.swap_tensors = real
    else:
        yield


def run(op: str, target: str, ns: dict[str, Any], inj: Injector) -> tuple[Any, str]:
    """The report (or None) and the KeyboardInterrupt's text ('' when none was raised)."""
    try:
        with injected(inj):
            if op == "move_all":
                return moves.move_all(target, ns), ""
            return moves.apply_all_fixes(ns), ""
    except KeyboardInterrupt as e:
        return None, str(e)


@settings(max_examples=250 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(recipe=namespaces, target=st.sampled_from(["meta", "meta", "meta", "cpu"]),
       op=st.sampled_from(["move_all", "move_all", "fixes"]),
       how=st.sampled_from(INJECTIONS),
       k=st.one_of(st.integers(1, 4), st.integers(1, 16), st.integers(1, 64)))
def test_moves_are_all_or_nothing(recipe: dict[str, Any], target: str, op: str, how: str,
                                  k: int) -> None:
    recipe = {**recipe, "anchor": ("list", ["adam", "f32"])}  # NB: always something to move
    ns = build(recipe)
    before = fingerprint(ns)
    CALLS.clear()
    inj = Injector(how, k)
    started = time.perf_counter()
    FIGURES.moves += 1
    try:
        report, interrupted = run(op, target, ns, inj)
    except BaseException:
        FIGURES.crashes += 1
        raise
    finally:
        FIGURES.timed(started, (recipe, target, op, how, k))
    FIGURES.injected += inj.fired
    calls = [c for c in CALLS if not c.startswith("torch_function:")]
    FIGURES.user_code_calls += len(calls)
    after = fingerprint(ns)
    undone = interrupted == UNDONE or (report is not None and not report.ok)
    FIGURES.state_changes += undone and after != before
    assert calls == []
    if report is not None:
        assert_plain_json(report_to_wire(report))
    assert interrupted in ("", DONE, UNDONE)
    assert how in INTERRUPTS or not interrupted
    if undone:
        assert after == before, (report, interrupted)
    elif op == "move_all":  # complete: nothing is left to move
        again = moves.move_all(target, ns, dry_run=True)
        assert again.moved == (), again


@settings(max_examples=100 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(recipe=namespaces, target=st.sampled_from(["meta", "meta", "cpu"]))
# NB: a tensor already on meta comes first: it is neither walked nor a column, and the dict
# after it (a model and its Adam) was reported after the first column name, not before it
@example(recipe={"a": "huge_meta", "l": "adam"}, target="meta")
def test_columns_plan_and_report_what_the_walk_does(recipe: dict[str, Any], target: str,
                                                     monkeypatch: Any) -> None:
    """Names bound to plain tensors move as columns (issue 39); a move is then the one the
    general walk of every name makes: the same report, row for row, dry or real."""
    from devicelens.moves import _loose

    recipe = {**recipe, "plain": "f32", "also": "f32"}  # NB: always two names for the columns
    ns, walked_ns = build(recipe), build(recipe)
    CALLS.clear()
    dry = moves.move_all(target, ns, dry_run=True)
    real = moves.move_all(target, ns)
    with monkeypatch.context() as m:
        m.setattr(_loose, "candidates", lambda torch, names, values, dev: _loose.Loose(
            dev, [], [], [False] * len(values)))
        assert moves.move_all(target, walked_ns, dry_run=True) == dry
        assert moves.move_all(target, walked_ns) == real
    assert [c for c in CALLS if not c.startswith("torch_function:")] == []
