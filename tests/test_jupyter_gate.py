"""The gate that keeps the panel's changes out of running cells, on a real IPython shell's
events (cells on this thread and on others) and on the hub that owns it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from devicelens.jupyter import comm as dl_comm
from devicelens.jupyter._gate import Gate


class Info:
    """Stands for IPython's ExecutionInfo: the gate only compares identities."""


class Result:
    def __init__(self, info: object) -> None:
        self.info = info


@pytest.fixture
def gate(ip: Any) -> Iterator[Gate]:
    g = Gate()
    g.install(ip)
    yield g
    g.uninstall()


def submit(gate: Gate, log: list[str], name: str) -> bool:
    return gate.submit((1, name), run=lambda: log.append(f"ran {name}"),
                       drop=lambda: log.append(f"dropped {name}"),
                       on_hold=lambda: log.append(f"held {name}"))


def test_runs_at_once_between_cells(gate: Gate) -> None:
    log: list[str] = []
    assert submit(gate, log, "a") is True
    assert log == ["ran a"]


def test_held_during_a_cell_and_run_when_it_ends(ip: Any, gate: Gate) -> None:
    log: list[str] = []
    ns = ip.user_ns
    ns["submit_now"] = lambda name: submit(gate, log, name)
    ns["log"] = log
    result = ip.run_cell("ran_at_once = submit_now('m1'); seen_in_cell = list(log)")
    assert result.success
    assert (ns["ran_at_once"], ns["seen_in_cell"]) == (False, ["held m1"])
    assert log == ["held m1", "ran m1"]
    assert not gate.cell_running


def test_an_empty_cell_or_a_nested_one_does_not_release_early(gate: Gate) -> None:
    log: list[str] = []
    outer, inner = Info(), Info()
    gate.pre_run_cell(outer)
    submit(gate, log, "a")
    gate.post_run_cell(Result(Info()))  # NB: whitespace cell: post_run_cell without pre
    gate.pre_run_cell(inner)
    gate.post_run_cell(Result(inner))
    assert log == ["held a"]
    gate.post_run_cell(None)  # an interrupted async cell reports no result
    assert log == ["held a", "ran a"]


def test_cancel_drops_what_waits_and_only_that(gate: Gate) -> None:
    log: list[str] = []
    info = Info()
    gate.pre_run_cell(info)
    submit(gate, log, "a")
    submit(gate, log, "b")
    assert gate.cancel((1, "a")) is True
    assert gate.cancel((1, "a")) is False
    gate.post_run_cell(Result(info))
    assert log == ["held a", "held b", "dropped a", "ran b"]


def test_a_cell_on_another_thread_holds_changes_and_waits_for_one_running(gate: Gate) -> None:
    log: list[str] = []
    other, release, started = Info(), threading.Event(), threading.Event()

    def console_cell() -> None:
        gate.pre_run_cell(other)
        log.append("console cell runs")
        gate.post_run_cell(Result(other))

    def slow_move() -> None:
        started.set()
        release.wait(10)
        log.append("move done")

    mover = threading.Thread(target=gate.submit,
                             args=((1, "m"), slow_move, lambda: None, lambda: None))
    mover.start()
    started.wait(10)
    cell = threading.Thread(target=console_cell)
    cell.start()
    cell.join(0.3)
    assert cell.is_alive() and log == []  # NB: the cell waits for the move in pre_run_cell
    release.set()
    mover.join(10)
    cell.join(10)
    assert log == ["move done", "console cell runs"]


def test_uninstall_drops_held_requests_and_unhooks(ip: Any) -> None:
    g, log = Gate(), []
    g.install(ip)
    g.pre_run_cell(Info())
    submit(g, log, "a")
    g.uninstall()
    assert log == ["held a", "dropped a"]
    assert g.pre_run_cell not in ip.events.callbacks["pre_run_cell"]
    assert not g.cell_running


def test_load_ext_inside_a_cell_counts_that_cell(ip: Any) -> None:
    """The cell running ``%load_ext`` had its pre_run_cell before the gate existed."""
    ip.run_line_magic("unload_ext", "devicelens")
    ip.user_ns["probe"] = lambda: dl_comm._HUBS[id(ip)].gate.cell_running
    result = ip.run_cell("%load_ext devicelens\nduring = probe()")
    assert result.success and ip.user_ns["during"] is True
    assert dl_comm._HUBS[id(ip)].gate.cell_running is False


def test_the_kernels_own_work_holds_changes_until_all_of_it_ends(gate: Gate) -> None:
    """``enter``/``leave`` (the kernel's handlers, see _kernel_watch) hold changes like cells,
    and a cell ending inside a handler releases nothing before the handler does."""
    log: list[str] = []
    silent = gate.enter("a silent execute_request")
    assert gate.cell_running and gate.reason() == "a silent execute_request"
    submit(gate, log, "a")
    info = Info()
    gate.pre_run_cell(info)
    assert gate.reason() == "a cell is running"
    gate.post_run_cell(Result(info))
    assert log == ["held a"]
    gate.leave(silent)
    assert log == ["held a", "ran a"] and not gate.cell_running
    gate.leave(silent)  # a second leave changes nothing
    assert submit(gate, log, "b") is True
