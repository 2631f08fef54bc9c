"""Fuzz: generated interleavings of cells (``pre_run_cell``/``post_run_cell``), the kernel's own
handlers (``enter``/``leave``: a silent execute, another comm's message), the panel's changes
and their cancels, on one gate (issue 38 item 5). Whatever the order: a change never runs while
anything runs, each change is answered exactly once (ran or dropped), held ones run in the order
they came, and all of them once the last thing running ends."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devicelens.jupyter._gate import Gate

from .checks import SCALE

OPS = st.lists(st.tuples(st.sampled_from(["cell", "handler", "end", "change", "cancel"]),
                         st.integers(0, 9)), max_size=40)


class Info:
    """Stands for IPython's ExecutionInfo (compared by identity)."""


class Result:
    def __init__(self, info: object) -> None:
        self.info = info


@settings(max_examples=300 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(ops=OPS)
def test_changes_never_run_while_anything_runs(ops: list[tuple[str, int]]) -> None:
    gate = Gate()
    running: list[tuple[str, Any]] = []
    answers: dict[int, list[str]] = {}
    ran: list[int] = []

    def change(n: int) -> None:
        answers[n] = []

        def run() -> None:
            assert not running and gate.cell_running is False, running
            answers[n].append("ran")
            ran.append(n)

        gate.submit((1, str(n)), run=run, drop=lambda: answers[n].append("dropped"),
                    on_hold=lambda: answers[n].append("held"))

    def end(k: int) -> None:
        what, handle = running.pop(k % len(running))
        if what == "cell":
            gate.post_run_cell(Result(handle))
        else:
            gate.leave(handle)

    for i, (op, k) in enumerate(ops):
        if op == "cell":
            info = Info()
            gate.pre_run_cell(info)
            running.append(("cell", info))
        elif op == "handler":
            running.append(("handler", gate.enter("another comm's message")))
        elif op == "end" and running:
            end(k)
        elif op == "change":
            change(i)
        elif op == "cancel" and answers:
            gate.cancel((1, str(sorted(answers)[k % len(answers)])))
        assert gate.cell_running == bool(running)
    while running:
        end(0)
    for n, said in answers.items():
        final = [s for s in said if s != "held"]
        assert len(final) == 1, (n, said)  # exactly one answer
        assert said[0] in ("ran", "held"), (n, said)  # ran at once, or was told it waits
    assert ran == sorted(ran)  # held changes run in the order they came
