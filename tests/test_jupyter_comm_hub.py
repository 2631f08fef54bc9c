"""The comm target on a real IPython shell: pushes after cells only while a panel is open,
debounced under an event loop, and ``%unload_ext`` taking it all back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import comm as comm_pkg
import pytest

from devicelens.jupyter import comm as dl_comm
from devicelens.jupyter._protocol import COMM_TARGET, PROTOCOL_VERSION

from ._comm_fake import FakeComm


@pytest.fixture
def hub(ip: Any) -> Iterator[dl_comm.Hub]:
    ip.run_cell("import torch", store_history=False)
    hub = dl_comm._HUBS[id(ip)]
    yield hub
    hub.close()


def open_panel(protocol: object = PROTOCOL_VERSION) -> FakeComm:
    fake = FakeComm()
    target = comm_pkg.get_comm_manager().targets[COMM_TARGET]
    target(fake, {"content": {"comm_id": "c1", "target_name": COMM_TARGET,
                              "data": {"protocol": protocol}}})
    return fake


def hooked(ip: Any, hub: dl_comm.Hub) -> bool:
    return hub.after_cell in ip.events.callbacks["post_run_cell"]


def snapshots(fake: FakeComm) -> list[dict[str, Any]]:
    return [m for m in fake.take() if m["type"] == "snapshot"]


def test_hook_only_while_a_panel_is_open(ip: Any, hub: dl_comm.Hub) -> None:
    assert not hooked(ip, hub)
    fake = open_panel()
    assert hooked(ip, hub) and [m["type"] for m in fake.take()] == ["hello", "snapshot"]
    fake.panel_close()
    assert not hooked(ip, hub) and hub.bridges == []


def test_mismatched_panel_is_not_pushed_to(ip: Any, hub: dl_comm.Hub) -> None:
    fake = open_panel(PROTOCOL_VERSION + 1)
    assert [m["type"] for m in fake.take()] == ["hello", "error"]
    assert not hooked(ip, hub)
    ip.run_cell("x = torch.zeros(2)", store_history=False)
    assert fake.sent == []


def test_push_after_each_cell_that_changed_something(ip: Any, hub: dl_comm.Hub) -> None:
    fake = open_panel()
    fake.take()
    ip.run_cell("x = torch.zeros(2, dtype=torch.float64)", store_history=False)
    [msg] = snapshots(fake)
    assert (msg["seq"], msg["request_id"]) == (2, None)
    [x] = [o for o in msg["snapshot"]["objects"] if o["name"] == "x"]
    assert (x["dtypes"], x["bytes"]) == (["float64"], 16)
    ip.run_cell("1 + 1", store_history=False)
    assert fake.sent == []


def test_every_panel_gets_the_push(ip: Any, hub: dl_comm.Hub) -> None:
    a, b = open_panel(), open_panel()
    a.take(), b.take()
    ip.run_cell("y = torch.ones(3)", store_history=False)
    assert [m["seq"] for m in snapshots(a)] == [2] and [m["seq"] for m in snapshots(b)] == [2]
    a.panel_close()
    ip.run_cell("z = torch.ones(3)", store_history=False)
    assert a.sent == [] and [m["seq"] for m in snapshots(b)] == [3]
    assert hooked(ip, hub)


def test_pushes_are_debounced_under_an_event_loop(ip: Any, hub: dl_comm.Hub) -> None:
    fake = open_panel()
    fake.take()
    ns = ip.user_ns

    async def burst() -> list[dict[str, Any]]:
        import torch

        for i in range(3):
            ns[f"v{i}"] = torch.ones(i + 1)
            hub.after_cell()
        before = list(fake.sent)
        await asyncio.sleep(5 * dl_comm.DEBOUNCE_S)
        return before

    assert asyncio.run(burst()) == []
    [msg] = snapshots(fake)
    assert {"v0", "v1", "v2"} <= {o["name"] for o in msg["snapshot"]["objects"]}


def test_a_long_burst_still_pushes_after_max_wait(ip: Any, hub: dl_comm.Hub) -> None:
    fake = open_panel()
    fake.take()

    async def burst() -> int:
        hub.after_cell()
        hub._pending_since = time.monotonic() - dl_comm.MAX_WAIT_S  # the burst ran that long
        ip.user_ns["late"] = ip.user_ns["torch"].ones(1)
        hub.after_cell()
        return len(fake.sent)

    assert asyncio.run(burst()) == 1
    assert "late" in {o["name"] for o in snapshots(fake)[0]["snapshot"]["objects"]}


def test_unload_closes_panels_and_drops_the_target(ip: Any, hub: dl_comm.Hub) -> None:
    fake = open_panel()
    ip.run_line_magic("unload_ext", "devicelens")
    try:
        assert fake.closed and not hooked(ip, hub)
        assert COMM_TARGET not in comm_pkg.get_comm_manager().targets
        assert id(ip) not in dl_comm._HUBS
    finally:
        ip.run_line_magic("load_ext", "devicelens")
    assert COMM_TARGET in comm_pkg.get_comm_manager().targets


def test_a_move_from_one_panel_is_pushed_to_every_panel(ip: Any, hub: dl_comm.Hub) -> None:
    ip.run_cell("lin = torch.nn.Linear(2, 2)", store_history=False)
    a, b = open_panel(), open_panel()
    a.take(), b.take()
    *_, result, reply = a.request("move_all", {"device": "meta", "names": ["lin"]}, rid="mv")
    assert (result["type"], reply["type"], reply["request_id"]) == ("result", "snapshot", None)
    for fake, msg in ((a, reply), (b, snapshots(b)[0])):
        [lin] = [o for o in msg["snapshot"]["objects"] if o["name"] == "lin"]
        assert lin["devices"] == ["meta"], fake
    assert ip.user_ns["lin"].weight.device.type == "meta"


def test_a_failing_snapshot_is_reported_to_the_panel_not_the_cell(
        ip: Any, hub: dl_comm.Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = open_panel()
    fake.take()

    def broken(ns: Any, **kw: Any) -> Any:
        raise RuntimeError("walk exploded")

    monkeypatch.setattr(dl_comm._push, "build_frame", broken)
    result = ip.run_cell("y2 = 1", store_history=False)
    assert result.success
    [err] = fake.take()
    assert (err["type"], err["error"], err["request_id"]) == ("error", "internal", None)
    assert err["detail"] == "snapshot after the cell failed: RuntimeError: walk exploded"


def test_a_training_step_that_changes_no_row_sends_nothing(ip: Any, hub: dl_comm.Hub) -> None:
    """After a training step every grad is a new tensor with the old one's header: the records
    change (new storages), the rows do not, so the panel is sent nothing to redraw; a change
    it shows is sent as before."""
    ip.run_cell("m = torch.nn.Linear(2, 2); opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
                "m(torch.zeros(1, 2)).sum().backward()", store_history=False)
    fake = open_panel()
    fake.take()
    ip.run_cell("opt.zero_grad(); m(torch.ones(1, 2)).sum().backward(); opt.step()",
                store_history=False)
    assert fake.sent == []
    frame = dl_comm._push._FRAMES[id(ip.user_ns)].last
    assert frame is not None and frame.snapshot is not None
    [grad] = [t for t in frame.snapshot["m"].tensors if t.path == "m.weight.grad"]
    assert grad.storage == id(ip.user_ns["m"].weight.grad)  # NB: the new grad, in the record
    ip.run_cell("m.double()", store_history=False)
    [msg] = snapshots(fake)
    assert sorted(msg["changed"]) == ["m", "opt"]
    [row] = [o for o in msg["snapshot"]["objects"] if o["name"] == "m"]
    assert row["dtypes"] == ["float64"]
