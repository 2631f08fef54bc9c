"""The panel's requests racing a running cell, in a real kernel with real subshells.

JupyterLab sends a comm's messages to a subshell of their own (ipykernel 7 runs it on another
thread), so they arrive *while* a cell runs. Each test proves from the cell's own output that
nothing changed under it; changes wait for the cell (``queued``, cancellable) and reads answer
at once from a namespace that the cell keeps changing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .test_jupyter_kernel_comm import Kernel, Msg, Panel, real_kernel, rows

pytestmark = pytest.mark.kernel

SLEEPY = """print("before", {name}.device, flush=True)
import time; time.sleep({seconds})
print("after", {name}.device)"""


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    yield from real_kernel()


@pytest.fixture
def panel(kernel: Kernel) -> Iterator[Panel]:
    """A panel whose comm lives on a subshell, as JupyterLab opens it."""
    p = Panel(kernel, subshell=kernel.subshell())
    p.snapshot()
    yield p
    p.close()


def held_until_the_cell_ends(kernel: Kernel, panel: Panel, cell: str, rid: str) -> Msg:
    """The ``queued`` reply to ``rid``, checked to arrive while ``cell`` still runs."""
    queued = panel.wait(lambda m: m.get("request_id") == rid)
    assert cell not in kernel.done, "the reply came only after the cell"
    assert queued["type"] == "queued", queued
    return queued


def test_a_move_sent_during_a_cell_runs_after_it(kernel: Kernel, panel: Panel) -> None:
    # NB: a cell on the main shell first: its push must not pull the panel's requests onto the
    # main shell's queue (they would wait there, unacknowledged and not cancellable)
    kernel.run("held = torch.ones(3)")
    panel.snapshot()
    cell = kernel.start(SLEEPY.format(name="held", seconds=3))
    kernel.printed(cell, "before")
    rid = panel.send("move_all", {"device": "meta", "names": ["held"]})
    queued = held_until_the_cell_ends(kernel, panel, cell, rid)
    assert (queued["method"], queued["reason"].split(":")[0]) == ("move_all", "a cell is running")
    assert kernel.finish(cell) == "before cpu\nafter cpu\n"  # nothing moved during the cell
    *progress, reply = panel.replies(rid)
    assert reply["type"] == "result" and reply["result"]["report"]["ok"]
    assert [m["type"] for m in progress] == ["progress"] * len(progress)
    assert kernel.run("print(held.device)") == "meta\n"


def test_a_queued_move_can_be_cancelled(kernel: Kernel, panel: Panel) -> None:
    kernel.run("kept = torch.ones(2)")
    cell = kernel.start(SLEEPY.format(name="kept", seconds=3))
    kernel.printed(cell, "before")
    rid = panel.send("move_all", {"device": "meta", "names": ["kept"]})
    held_until_the_cell_ends(kernel, panel, cell, rid)
    cancel = panel.send("cancel", {"request_id": rid})
    [dropped] = panel.replies(rid)  # NB: the dropped move is answered first, then the cancel
    [cancelled] = panel.replies(cancel)
    assert cancelled["result"] == {"request_id": rid, "cancelled": True}
    assert (dropped["type"], dropped["error"]) == ("error", "cancelled")
    assert "nothing was changed" in dropped["detail"]
    assert kernel.finish(cell) == "before cpu\nafter cpu\n"
    assert kernel.run("print(kept.device)") == "cpu\n"
    [late] = panel.request("cancel", {"request_id": rid})  # nothing waits any more
    assert late["result"] == {"request_id": rid, "cancelled": False}


def test_apply_fix_waits_too(kernel: Kernel, panel: Panel) -> None:
    kernel.run("halves = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)); halves[1].to('meta')")
    msg = panel.wait(lambda m: m["type"] == "snapshot" and "halves" in rows(m))
    [finding] = [f for f in msg["findings"] if f["objects"] == ["halves"]]
    cell = kernel.start(SLEEPY.format(name="halves[0].weight", seconds=3))
    kernel.printed(cell, "before")
    rid = panel.send("apply_fix", {"finding_id": finding["id"]})
    held_until_the_cell_ends(kernel, panel, cell, rid)
    assert kernel.finish(cell) == "before cpu\nafter cpu\n"
    *_, reply = panel.replies(rid)
    assert reply["type"] == "result" and reply["result"]["report"]["ok"]
    assert kernel.run("print({p.device.type for p in halves.parameters()})") == "{'meta'}\n"


def test_a_cell_on_another_subshell_counts_as_a_running_cell(kernel: Kernel,
                                                             panel: Panel) -> None:
    kernel.run("elsewhere = torch.ones(2)")
    console = kernel.subshell()  # a console or a second notebook view on the same kernel
    cell = kernel.start(SLEEPY.format(name="elsewhere", seconds=2), subshell=console)
    kernel.printed(cell, "before")
    rid = panel.send("move_all", {"device": "meta", "names": ["elsewhere"]})
    held_until_the_cell_ends(kernel, panel, cell, rid)
    assert kernel.finish(cell) == "before cpu\nafter cpu\n"
    *_, reply = panel.replies(rid)
    assert reply["result"]["report"]["ok"]
    assert kernel.run("print(elsewhere.device)") == "meta\n"


def test_dry_runs_and_reads_answer_during_the_cell(kernel: Kernel, panel: Panel) -> None:
    """The cell keeps adding and removing names and dict entries; every read still answers,
    while the cell runs, with a whole snapshot (nothing skipped) and never an error.
    NB: ``churn`` holds a tensor before "churning" is printed: an empty dict has no row, and a
    read may well come before the loop's first step."""
    churn = """import time
churn, end, i = {-1: torch.ones(1)}, time.monotonic() + 4, 0
print("churning", flush=True)
while time.monotonic() < end:
    churn[i] = torch.ones(1)
    churn.pop(i - 40, None)
    globals()[f"tmp_{i % 7}"] = torch.ones(2)
    globals().pop(f"tmp_{(i + 3) % 7}", None)
    i += 1
print("churned")"""
    cell = kernel.start(churn)
    kernel.printed(cell, "churning")
    answers = []
    while cell not in kernel.done and len(answers) < 40:
        for method, params in (("refresh", {}), ("expand", {"name": "churn"}),
                               ("move_all", {"device": "meta", "dry_run": True,
                                             "names": ["churn"]})):
            [reply] = panel.request(method, params)
            answers.append((cell in kernel.done, reply))
    during = [r for done, r in answers if not done]
    assert len(during) >= 6, "the reads were not answered while the cell ran"
    assert [r["type"] for r in during if r["type"] == "error"] == []
    snaps = [r for r in during if r["type"] == "snapshot"]
    assert snaps and all("churn" in rows(s) and s["snapshot"]["skipped"] == [] for s in snaps)
    expanded = [r["result"]["object"] for r in during if r.get("method") == "expand"]
    assert expanded and all(o["name"] == "churn" and o["children"] for o in expanded)
    kernel.finish(cell)


def test_a_cell_run_on_a_subshell_is_pushed(kernel: Kernel, panel: Panel) -> None:
    cell = kernel.start("from_console = torch.zeros(2, dtype=torch.float16)",
                        subshell=kernel.subshell())
    kernel.finish(cell)
    msg = panel.wait(lambda m: m["type"] == "snapshot" and "from_console" in rows(m))
    assert (msg["request_id"], rows(msg)["from_console"]["dtypes"]) == (None, ["float16"])
    kernel.run("from_main = torch.ones(1)")  # and the main shell's next push still comes
    panel.wait(lambda m: m["type"] == "snapshot" and "from_main" in rows(m))


def test_subshells_off_an_async_cell_holds_the_move_too(kernel: Kernel) -> None:
    """No subshells: ipykernel still hands a comm message to the main thread while an async
    cell awaits; the move waits for the cell all the same."""
    p = Panel(kernel)  # NB: the main shell, as with "Kernel comms over subshells" disabled
    try:
        p.snapshot()
        kernel.run("waited = torch.ones(2)")
        cell = kernel.start('print("before", waited.device, flush=True)\nimport asyncio\n'
                            'await asyncio.sleep(3)\nprint("after", waited.device)')
        kernel.printed(cell, "before")
        rid = p.send("move_all", {"device": "meta", "names": ["waited"]})
        held_until_the_cell_ends(kernel, p, cell, rid)
        assert kernel.finish(cell) == "before cpu\nafter cpu\n"
        *_, reply = p.replies(rid)
        assert reply["result"]["report"]["ok"]
        assert kernel.run("print(waited.device)") == "meta\n"
    finally:
        p.close()
