"""A move never raises what user code raises, and its undo is whole (issue 38, items 3 and 12):
``SystemExit`` and other ``BaseException``s from user code are reports; a set whose tensors hash
by their own code is refused before anything changes; an undo step that a KeyboardInterrupt
stops is run again; and a report never claims a restore that was not made."""

from __future__ import annotations

import signal
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.moves import _apply as _moveapply

from .test_moves_faults import assert_same, fingerprint, realistic

CALLS: list[str] = []


class ExitOnMove(torch.Tensor):
    """A tensor subclass whose ``__torch_function__`` (user code a move runs: its ``.to()``)
    calls ``sys.exit`` or raises another ``BaseException``."""

    raises: type[BaseException] = SystemExit

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if getattr(func, "__name__", "") == "to":
            raise cls.raises("user code exits")
        return super().__torch_function__(func, types, args, kwargs or {})


class GeneratorExitOnMove(ExitOnMove):
    raises = GeneratorExit


class CustomBase(BaseException):
    pass


class CustomBaseOnMove(ExitOnMove):
    raises = CustomBase


@pytest.mark.parametrize("cls", [ExitOnMove, GeneratorExitOnMove, CustomBaseOnMove])
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_base_exception_from_user_code_is_a_report_and_changes_nothing(
        cls: type[ExitOnMove], dry_run: bool) -> None:
    ns = realistic()
    ns["odd"] = torch.ones(3).as_subclass(cls)
    before = fingerprint(ns)
    report = moves.move_all("meta", ns, dry_run=dry_run)
    if dry_run:  # NB: a dry run allocates nothing, so no user code runs
        assert report.ok
    else:
        assert (report.ok, report.moved) == (False, ())
        assert report.error == (f"moving odd to meta failed: {cls.raises.__name__}: user code "
                                f"exits")
    assert_same(before, fingerprint(ns))


def test_system_exit_while_committing_is_undone_and_reported(monkeypatch: Any) -> None:
    real = _moveapply.write_slot
    n = {"calls": 0}

    def exits(*args: Any) -> None:
        n["calls"] += 1
        if n["calls"] == 3:
            raise SystemExit(2)
        real(*args)

    ns = realistic()
    before = fingerprint(ns)
    monkeypatch.setattr(_moveapply, "write_slot", exits)
    report = moves.move_all("meta", ns)
    monkeypatch.setattr(_moveapply, "write_slot", real)
    assert (report.ok, report.error) == (
        False, "the move failed and everything was restored: SystemExit: 2")
    assert_same(before, fingerprint(ns))


def test_system_exit_while_planning_a_fix_is_a_report(monkeypatch: Any) -> None:
    from devicelens.moves import _engine

    def exits(*args: Any, **kw: Any) -> Any:
        raise SystemExit("planning")

    ns = {"x": torch.ones(2)}
    monkeypatch.setattr(_engine, "plan_move", exits)
    report = moves.move_all("meta", ns)
    assert (report.ok, report.error) == (
        False, "the move could not be planned: SystemExit: planning; nothing was changed")


# --- item 3: the undo is whole, or the report says what it left --------------------------

class OwnHash(torch.Tensor):
    """A tensor subclass with its own ``__hash__`` that refuses to hash a meta tensor."""

    def __hash__(self) -> int:
        CALLS.append("hash")
        if torch._C.TensorBase.device.__get__(self).type == "meta":
            raise RuntimeError("cannot hash a meta tensor")
        return id(self)


def test_a_tensor_that_hashes_by_its_own_code_in_a_set_is_refused_unhashed() -> None:
    t = torch.ones(3).as_subclass(OwnHash)
    s: set[Any] = set()
    set.add(s, t)
    plain = torch.ones(2)
    ns = {"s": s, "plain": plain, "fs": frozenset([plain, 1])}
    CALLS.clear()
    report = moves.move_all("meta", ns)
    assert CALLS == []
    assert (report.ok, report.moved) == (False, ())
    assert report.refused == (("s", "holds tensors in a set whose __hash__ or __eq__ is their "
                                     "own code (a OwnHash)"),)
    assert list(set.__iter__(s)) == [t] and torch._C.TensorBase.device.__get__(t).type == "cpu"
    named = moves.move_all("meta", ns, names=["plain", "fs"])  # a set of plain tensors moves
    assert named.ok and ns["plain"].device.type == "meta"
    assert {type(x).__name__ for x in ns["fs"]} == {"Tensor", "int"}
    assert [x.device.type for x in ns["fs"] if type(x) is torch.Tensor] == ["meta"]


def _fail_then(monkeypatch: Any, fail_at: int, undo_hook: Any) -> None:
    """``write_slot`` fails at its ``fail_at``-th commit call; ``undo_hook(k)`` runs before the
    ``k``-th call after that (the undo's)."""
    real = _moveapply.write_slot
    n = {"calls": 0}

    def flaky(*args: Any) -> None:
        n["calls"] += 1
        if n["calls"] == fail_at:
            raise RuntimeError("injected commit failure")
        if n["calls"] > fail_at:
            undo_hook(n["calls"] - fail_at)
        real(*args)

    monkeypatch.setattr(_moveapply, "write_slot", flaky)


def world() -> dict[str, Any]:
    x = torch.ones(2)
    return {"x": x, "y": torch.zeros(3), "pair": (x, 1), "box": [x, torch.ones(1)],
            "m": nn.Linear(2, 2)}


def test_a_keyboard_interrupt_inside_the_undo_does_not_stop_it(monkeypatch: Any) -> None:
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    hits: list[int] = []

    def interrupt(k: int) -> None:
        if k == 2 and not hits:  # NB: once, before the step does anything (like a signal)
            hits.append(k)
            raise KeyboardInterrupt

    ns = world()
    before = fingerprint(ns)
    _fail_then(monkeypatch, 4, interrupt)
    try:
        with pytest.raises(KeyboardInterrupt) as err:
            moves.move_all("meta", ns)
    finally:
        signal.signal(signal.SIGINT, old)
    assert hits == [2]
    assert str(err.value) == "devicelens: the move was interrupted; nothing was changed"
    assert_same(before, fingerprint(ns))


def test_an_undo_that_cannot_finish_says_what_it_left(monkeypatch: Any) -> None:
    def broken(k: int) -> None:
        if k == 2:
            raise RuntimeError("cannot write back")

    ns = world()
    _fail_then(monkeypatch, 4, broken)
    report = moves.move_all("meta", ns)
    assert not report.ok
    assert "everything was restored" not in report.error
    assert report.error.startswith(
        "the move failed (RuntimeError: injected commit failure) and could not be fully "
        "undone: 1 reference was not restored: ")
    assert report.error.endswith("(RuntimeError: cannot write back); check it by hand")
