"""The panel's comm against a real kernel: hand-built ``comm_open``/``comm_msg`` on the shell
channel, replies read off iopub exactly as JupyterLab receives them."""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import start_new_kernel

from devicelens.jupyter._protocol import COMM_TARGET, PROTOCOL_VERSION

pytestmark = pytest.mark.kernel

SETUP = """
%load_ext devicelens
import sys, torch
from torch import nn
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.ones(2, 4)
print(sys.executable)
"""

Msg = dict[str, Any]


class Kernel:
    """One real kernel; iopub pumped into per-comm inboxes."""

    def __init__(self, kc: BlockingKernelClient) -> None:
        self.kc = kc
        self.inbox: dict[str, list[Msg]] = {}
        self.closed: set[str] = set()
        self.outputs: dict[str, list[str]] = {}  # execute msg_id -> its stdout so far
        self.done: set[str] = set()  # execute msg_ids that went idle

    def _pump(self, timeout: float) -> Msg | None:
        try:
            msg: Msg = self.kc.get_iopub_msg(timeout=timeout)
        except Exception:  # queue.Empty
            return None
        content = msg["content"]
        parent = msg["parent_header"].get("msg_id")
        if msg["msg_type"] == "comm_msg" and content["comm_id"] in self.inbox:
            self.inbox[content["comm_id"]].append(content["data"])
        elif msg["msg_type"] == "comm_close":
            self.closed.add(content["comm_id"])
        elif msg["msg_type"] == "stream" and parent in self.outputs:
            self.outputs[parent].append(content["text"])
        elif (msg["msg_type"] == "status" and content["execution_state"] == "idle"
              and parent in self.outputs):
            self.done.add(parent)
        return msg

    def run(self, code: str) -> str:
        """Run a cell to idle; its stdout. Fails the test on an error in the cell."""
        msg_id = self.kc.execute(code)
        out, errors = [], []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = self._pump(1)
            if msg is None or msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                errors.append("\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                assert not errors, errors
                return "".join(out)
        raise AssertionError(f"cell did not finish: {code!r}")

    def send(self, msg_type: str, content: Msg, subshell: str | None = None) -> str:
        msg = self.kc.session.msg(msg_type, content)
        if subshell is not None:
            msg["header"]["subshell_id"] = subshell
        self.kc.shell_channel.send(msg)
        return str(msg["header"]["msg_id"])

    def start(self, code: str, subshell: str | None = None) -> str:
        """Send a cell without waiting for it; its msg_id (see ``finish``)."""
        msg_id = self.send("execute_request", {"code": code, "silent": False,
                                               "store_history": False, "allow_stdin": False,
                                               "stop_on_error": True}, subshell)
        self.outputs[msg_id] = []
        return msg_id

    def printed(self, msg_id: str, text: str, timeout: float = 30) -> None:
        """Wait until the cell ``msg_id`` has printed ``text``."""
        deadline = time.monotonic() + timeout
        while text not in "".join(self.outputs[msg_id]):
            assert time.monotonic() < deadline, f"cell never printed {text!r}"
            self._pump(0.1)

    def finish(self, msg_id: str, timeout: float = 60) -> str:
        """Wait for the cell ``msg_id`` to go idle; what it printed."""
        deadline = time.monotonic() + timeout
        while msg_id not in self.done:
            assert time.monotonic() < deadline, "cell did not finish"
            self._pump(0.1)
        return "".join(self.outputs.pop(msg_id))

    def subshell(self) -> str:
        """A new subshell (its own thread in the kernel), as JupyterLab makes one per target."""
        self.kc.control_channel.send(self.kc.session.msg("create_subshell_request", {}))
        reply = self.kc.get_control_msg(timeout=10)
        assert reply["content"]["status"] == "ok", reply
        return str(reply["content"]["subshell_id"])


class Panel:
    """What the sidebar does on the wire."""

    def __init__(self, kernel: Kernel, protocol: object = PROTOCOL_VERSION,
                 subshell: str | None = None) -> None:
        self.k = kernel
        self.subshell = subshell  # NB: JupyterLab sends a comm's every message to one subshell
        self.comm_id = uuid.uuid4().hex
        kernel.inbox[self.comm_id] = []
        kernel.send("comm_open", {"comm_id": self.comm_id, "target_name": COMM_TARGET,
                                  "data": {"protocol": protocol}}, subshell)
        self.n = 0

    def wait(self, pred: Callable[[Msg], bool], timeout: float = 30) -> Msg:
        """The first message (oldest first) matching ``pred``; earlier ones are dropped."""
        box = self.k.inbox[self.comm_id]
        deadline = time.monotonic() + timeout
        while True:
            for i, data in enumerate(box):
                if pred(data):
                    del box[:i + 1]
                    return data
            if time.monotonic() > deadline:
                raise AssertionError(f"no matching message; got {[m['type'] for m in box]}")
            self.k._pump(0.2)

    def quiet(self, seconds: float) -> list[Msg]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.k._pump(0.05)
        box = self.k.inbox[self.comm_id]
        out = list(box)
        box.clear()
        return out

    def send(self, method: str, params: Msg | None = None, **extra: Any) -> str:
        """Send one request without waiting; its request_id (see ``replies``)."""
        self.n += 1
        rid = f"r{self.n}"
        self.k.send("comm_msg", {"comm_id": self.comm_id, "data": {
            "type": "request", "protocol": PROTOCOL_VERSION, "request_id": rid,
            "method": method, "params": params or {}, **extra}}, self.subshell)
        return rid

    def replies(self, rid: str, timeout: float = 30) -> list[Msg]:
        """Every message answering ``rid``, up to and including the final one."""
        got: list[Msg] = []
        while not got or got[-1]["type"] in ("progress", "queued"):
            got.append(self.wait(lambda m: m.get("request_id") == rid, timeout))
        return got

    def request(self, method: str, params: Msg | None = None, **extra: Any) -> list[Msg]:
        """Send one request; every message answering it, up to and including the final one."""
        return self.replies(self.send(method, params, **extra))

    def close(self) -> None:
        self.k.send("comm_close", {"comm_id": self.comm_id, "data": {}}, self.subshell)

    def snapshot(self, after: int = 0) -> Msg:
        return self.wait(lambda m: m["type"] == "snapshot" and m["seq"] > after)



def real_kernel() -> Iterator[Kernel]:
    """A kernel of this venv with SETUP run, shut down afterwards."""
    km, kc = start_new_kernel(kernel_name="python3")
    try:
        k = Kernel(kc)
        assert k.run(SETUP).strip() == sys.executable  # NB: the venv's kernel, not another one
        yield k
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    yield from real_kernel()


@pytest.fixture
def panel(kernel: Kernel) -> Iterator[Panel]:
    p = Panel(kernel)
    yield p
    p.close()


def rows(msg: Msg) -> dict[str, Msg]:
    return {o["name"]: o for o in msg["snapshot"]["objects"]}


def test_hello_then_the_first_snapshot(panel: Panel) -> None:
    import devicelens

    hello = panel.wait(lambda m: True)
    assert hello == {"type": "hello", "protocol": PROTOCOL_VERSION,
                     "version": devicelens.__version__}
    snap = panel.snapshot()
    assert (snap["seq"], snap["changed"]) == (1, None)
    assert {"model", "x"} <= set(rows(snap))
    assert rows(snap)["model"]["tensors"] == 4


def test_push_after_a_cell_and_none_when_nothing_changed(kernel: Kernel, panel: Panel) -> None:
    first = panel.snapshot()
    kernel.run("t_new = torch.ones(5, dtype=torch.float16)")
    msg = panel.snapshot(after=first["seq"])
    assert msg["seq"] == first["seq"] + 1
    assert rows(msg)["t_new"]["dtypes"] == ["float16"]
    kernel.run("1 + 1")
    assert [m["type"] for m in panel.quiet(0.5)] == []


def test_expand_and_list_devices(panel: Panel) -> None:
    panel.snapshot()
    [reply] = panel.request("expand", {"name": "model", "path": "model.2"})
    obj = reply["result"]["object"]
    assert [(c["path"], c["shape"]) for c in obj["children"]] == [
        ("model.2.weight", [2, 8]), ("model.2.bias", [2])]
    [reply] = panel.request("list_devices")
    assert [d["name"] for d in reply["result"]["devices"]] == ["cpu", "meta"]


def test_errors_are_replies_and_the_kernel_stays_alive(kernel: Kernel, panel: Panel) -> None:
    panel.snapshot()
    cases = [
        (("shutdown", {}), "unknown_method"),
        (("expand", {"name": ["model"]}), "bad_request"),
        (("apply_fix", {"finding_id": "module_split-000000000000"}), "stale_finding"),
        (("move_all", {"device": "cuda:7"}), "bad_device"),
        (("move_all", {"device": "__import__('os')"}), "bad_device"),
        (("move_all", {"device": "meta", "names": ["nope"]}), "bad_request"),
    ]
    for (method, params), code in cases:
        *_, reply = panel.request(method, params)
        assert (reply["type"], reply["error"]) == ("error", code), reply
    assert kernel.run("print(next(model.parameters()).device, 6 * 7)") == "cpu 42\n"


def test_protocol_mismatch(kernel: Kernel) -> None:
    p = Panel(kernel, protocol=PROTOCOL_VERSION + 1)
    try:
        assert p.wait(lambda m: True)["type"] == "hello"
        err = p.wait(lambda m: True)
        assert (err["error"], err["request_id"]) == ("protocol_mismatch", None)
        assert f"panel protocol {PROTOCOL_VERSION + 1} — reinstall" in err["detail"]
        [reply] = p.request("refresh")
        assert reply["error"] == "protocol_mismatch"
    finally:
        p.close()


def test_move_all_to_meta_dry_run_then_for_real(kernel: Kernel, panel: Panel) -> None:
    kernel.run("mv = nn.Linear(3, 3); mv_w = mv.weight; mv_t = torch.ones(4)")
    first = panel.snapshot()
    *progress, reply = panel.request("move_all", {"device": "meta", "dry_run": True,
                                                  "names": ["mv", "mv_t"]})
    report = reply["result"]["report"]
    assert (reply["type"], report["ok"], report["dry_run"], report["target"]) == (
        "result", True, True, "meta")
    assert [(m["path"], m["source"], m["bytes"]) for m in report["moved"]] == [
        ("mv", "cpu", 48), ("mv_t", "cpu", 16)]
    assert kernel.run("print(mv.weight.device, mv_t.device)") == "cpu cpu\n"
    panel.quiet(0.3)
    *progress, reply = panel.request("move_all", {"device": "meta", "names": ["mv", "mv_t"]})
    assert reply["result"]["report"]["ok"] and not reply["result"]["report"]["dry_run"]
    assert progress and progress[-1]["done"] == progress[-1]["total"] == 64  # 36 + 12 + 16 bytes
    pushed = rows(panel.snapshot(after=first["seq"]))
    assert (pushed["mv"]["devices"], pushed["mv_t"]["devices"]) == (["meta"], ["meta"])
    assert kernel.run("print(mv.weight.device, mv_t.device, mv.weight is mv_w)") == (
        "meta meta True\n")


def test_apply_fix_by_id(kernel: Kernel, panel: Panel) -> None:
    panel.snapshot()
    kernel.run("split = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2)); split[1].to('meta')")
    msg = panel.wait(lambda m: m["type"] == "snapshot" and "split" in rows(m))
    [finding] = [f for f in msg["findings"] if f["objects"] == ["split"]]
    assert (finding["kind"], finding["applicable"]) == ("module_split", True)
    *progress, reply = panel.request("apply_fix", {"finding_id": finding["id"]})
    assert all(p["type"] == "progress" for p in progress)
    assert (reply["type"], reply["result"]["finding_id"]) == ("result", finding["id"])
    assert reply["result"]["report"]["ok"]
    after = panel.snapshot(after=msg["seq"])
    assert finding["id"] not in {f["id"] for f in after["findings"]}
    assert len(set(rows(after)["split"]["devices"])) == 1
    *_, again = panel.request("apply_fix", {"finding_id": finding["id"]})
    assert again["error"] == "stale_finding"


def test_nothing_is_pushed_once_every_panel_closed(kernel: Kernel) -> None:
    p = Panel(kernel)
    p.wait(lambda m: m["type"] == "snapshot")
    p.close()
    kernel.run("quiet_t = torch.ones(1)")
    assert p.quiet(0.5) == []
    hooks = kernel.run("print(sorted(type(getattr(cb, '__self__', None)).__name__ for cb in "
                       "get_ipython().events.callbacks['post_run_cell']))")
    assert "Hub" not in hooks
