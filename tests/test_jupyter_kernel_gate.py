"""The gate follows the kernel's own execution state, not only cells (issue 38 item 5): in a
real kernel, a change the panel sends waits for a silent ``execute_request`` (no cell events)
and for another comm's handler (a widget's callback), proven by the code's own output; a
thread that a cell started and that still runs is named in the reply."""

from __future__ import annotations

import pytest

from . import test_jupyter_kernel_subshells as _subshells
from .test_jupyter_kernel_comm import Kernel, Panel

pytestmark = pytest.mark.kernel
# NB: the subshell tests' own: a module-scoped real kernel, a panel on a subshell, the check
# that a reply came while the code still ran, and code that prints around a sleep
kernel, panel = _subshells.kernel, _subshells.panel
held_until_the_cell_ends, SLEEPY = _subshells.held_until_the_cell_ends, _subshells.SLEEPY

PROBE = """from comm import get_comm_manager
def _probe_open(comm, msg):
    @comm.on_msg
    def _on_msg(msg):  # what an ipywidgets callback is: user code run by a comm message
{body}
get_comm_manager().register_target("probe", _probe_open)"""


def moved_after(kernel: Kernel, panel: Panel, rid: str, name: str) -> None:
    *_, reply = panel.replies(rid)
    assert reply["type"] == "result" and reply["result"]["report"]["ok"], reply
    assert kernel.run(f"print({name}.device)") == "meta\n"


def test_a_silent_execute_request_holds_a_move(kernel: Kernel, panel: Panel) -> None:
    kernel.run("quiet = torch.ones(3)")
    msg_id = kernel.send("execute_request", {
        "code": SLEEPY.format(name="quiet", seconds=3), "silent": True, "store_history": False,
        "allow_stdin": False, "stop_on_error": True})
    kernel.outputs[msg_id] = []
    kernel.printed(msg_id, "before")
    rid = panel.send("move_all", {"device": "meta", "names": ["quiet"]})
    queued = held_until_the_cell_ends(kernel, panel, msg_id, rid)
    assert queued["reason"] == (
        "the kernel is running code sent without a cell (a silent execute_request): the "
        "change waits until it ends, then runs before the next one")
    assert kernel.finish(msg_id) == "before cpu\nafter cpu\n"  # nothing moved under it
    moved_after(kernel, panel, rid, "quiet")


def test_another_comms_handler_holds_a_move(kernel: Kernel, panel: Panel) -> None:
    kernel.run("widgeted = torch.ones(2)\n" + PROBE.format(body="\n".join(
        "        " + line for line in SLEEPY.format(name="widgeted", seconds=3).splitlines())))
    comm_id = "probe-comm"
    kernel.send("comm_open", {"comm_id": comm_id, "target_name": "probe", "data": {}})
    msg_id = kernel.send("comm_msg", {"comm_id": comm_id, "data": {"clicked": True}})
    kernel.outputs[msg_id] = []
    kernel.printed(msg_id, "before")
    rid = panel.send("move_all", {"device": "meta", "names": ["widgeted"]})
    queued = held_until_the_cell_ends(kernel, panel, msg_id, rid)
    assert queued["reason"].split(":")[0] == (
        "the kernel is handling another comm's message (a widget's callback, say)")
    assert kernel.finish(msg_id) == "before cpu\nafter cpu\n"
    moved_after(kernel, panel, rid, "widgeted")


def test_the_panels_own_messages_on_the_main_shell_do_not_wait_for_themselves(
        kernel: Kernel) -> None:
    p = Panel(kernel)  # NB: the main shell, as with "Kernel comms over subshells" disabled
    try:
        p.snapshot()
        kernel.run("mine = torch.ones(2)")
        *progress, reply = p.request("move_all", {"device": "meta", "names": ["mine"]})
        assert {m["type"] for m in progress} <= {"progress"}  # never queued
        assert reply["type"] == "result" and reply["result"]["report"]["ok"], reply
    finally:
        p.close()


def test_a_thread_a_cell_started_is_named_in_the_reply(kernel: Kernel, panel: Panel) -> None:
    kernel.run("import threading\nthreaded = torch.ones(2)\nstop = threading.Event()\n"
               "worker = threading.Thread(target=stop.wait, args=(30,), name='trainer')\n"
               "worker.start()")
    try:
        *_, reply = panel.request("move_all", {"device": "meta", "names": ["threaded"]})
        report = reply["result"]["report"]
        assert report["ok"] and report["notes"][-1] == (
            "User thread started by a cell is still running (trainer): it may be using these "
            "tensors while they move, or keep the old ones afterwards; join it first to be "
            "sure.")
    finally:
        kernel.run("stop.set(); worker.join()")
    kernel.run("other = torch.ones(1)")
    *_, reply = panel.request("move_all", {"device": "meta", "names": ["other"]})
    assert not any("thread" in n for n in reply["result"]["report"]["notes"])
