"""The panel's window (protocol v4): the kernel sends one page of the top-level rows, ordered
and filtered in the kernel, with the whole namespace's totals and findings; ``rows`` asks for
another page, sort or filter, and later pushes keep to it."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter._protocol import (
    DEFAULT_LIMIT,
    PROTOCOL_VERSION,
    finding_to_wire,
    row_to_wire,
    snapshot_to_wire,
)
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


def loose(n: int) -> dict[str, Any]:
    """``n`` tensors of sizes and dtypes that differ, so every sort key orders them."""
    dtypes = (torch.float32, torch.float16, torch.int64)
    return {f"t{i}": torch.zeros(i % 13 + 1, dtype=dtypes[i % 3]) for i in range(n)}


def opened(ns: dict[str, Any], **window: Any) -> tuple[Bridge, FakeComm]:
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    data: dict[str, Any] = {"protocol": PROTOCOL_VERSION}
    if window:
        data["window"] = window
    assert bridge.open(data) is True
    return bridge, comm


def names(msg: dict[str, Any]) -> list[str]:
    return [o["name"] for o in msg["snapshot"]["objects"]]


def expected(ns: dict[str, Any], key: Any, descending: bool = False) -> list[str]:
    """The order a panel's column gives, written out independently: by the key, then by name
    (ascending whatever the direction)."""
    by_name = sorted(ns)
    return sorted(by_name, key=lambda n: key(ns[n]), reverse=descending)


def test_the_first_frame_carries_one_page_and_the_whole_namespaces_totals() -> None:
    ns = loose(1000)
    _, comm = opened(ns)
    _, first = comm.take()
    assert len(first["snapshot"]["objects"]) == DEFAULT_LIMIT == len(first["window"]["names"])
    assert (first["window"]["matched"], first["window"]["total"]) == (1000, 1000)
    snap = take_snapshot(ns)
    whole = snapshot_to_wire(snap, objects=False)
    assert first["snapshot"]["totals"] == whole["totals"]
    assert sum(t["tensors"] for t in first["snapshot"]["totals"]) == 1000
    assert first["findings"] == [finding_to_wire(f) for f in diagnose(snap)]
    assert names(first) == first["window"]["names"] == sorted(ns, key=str.lower)[:DEFAULT_LIMIT]
    assert all(o == row_to_wire(snap[o["name"]]) for o in first["snapshot"]["objects"])


def test_a_page_after_a_sort_is_the_right_slice() -> None:
    ns = loose(300)
    _, comm = opened(ns)
    comm.take()
    [msg] = comm.request("rows", {"sort": "bytes", "ascending": False, "offset": 40,
                                  "limit": 25}, rid="p1")
    assert (msg["type"], msg["request_id"], msg["changed"]) == ("snapshot", "p1", None)
    want = expected(ns, lambda t: t.nbytes, descending=True)[40:65]
    assert names(msg) == msg["window"]["names"] == want
    assert (msg["window"]["offset"], msg["window"]["limit"], msg["window"]["sort"]) == (
        40, 25, "bytes")
    [msg] = comm.request("rows", {"sort": "shape", "ascending": True, "offset": 0}, rid="p2")
    assert names(msg) == expected(ns, lambda t: t.numel())[:25]  # NB: the limit stays


def test_a_filter_runs_in_the_kernel_over_every_row() -> None:
    ns = loose(600)
    ns["model"] = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU())
    _, comm = opened(ns)
    comm.take()
    [msg] = comm.request("rows", {"filter": "FLOAT16", "limit": 500}, rid="f")
    half = sorted(n for n, t in ns.items() if getattr(t, "dtype", None) == torch.float16)
    assert names(msg) == sorted(half, key=str.lower)
    assert (msg["window"]["matched"], msg["window"]["total"]) == (200, 601)
    [msg] = comm.request("rows", {"filter": "conv2d"}, rid="g")  # NB: a submodule's type
    assert names(msg) == ["model"] and msg["window"]["matched"] == 1
    [msg] = comm.request("rows", {"filter": "(5,)"}, rid="h")  # NB: a shape as drawn
    assert set(names(msg)) == {n for n, t in ns.items() if n != "model" and t.shape == (5,)}


def test_rows_with_errors_come_first_by_name() -> None:
    ns = loose(300)
    ns["zz_model"] = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
    ns["zz_model"][0].to("meta")  # NB: split across two devices: an error
    _, comm = opened(ns)
    first = comm.take()[1]
    assert any(f["severity"] == "error" and "zz_model" in f["objects"]
               for f in first["findings"])
    assert names(first)[0] == "zz_model"


def test_pushes_keep_to_the_window_the_panel_asked_for() -> None:
    ns = loose(300)
    bridge, comm = opened(ns)
    comm.take()
    comm.request("rows", {"filter": "int64", "limit": 500}, rid="f")
    ns["new_int"] = torch.zeros(2, dtype=torch.int64)
    ns["new_float"] = torch.zeros(2)
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["changed"], msg["removed"]) == (["new_int"], [])
    assert "new_float" not in msg["window"]["names"] and "new_int" in msg["window"]["names"]
    assert msg["window"]["matched"] == 101 and msg["window"]["total"] == 302
    cpu = {t["device"]: t["tensors"] for t in msg["snapshot"]["totals"]}["cpu"]
    assert cpu == 302  # NB: the totals are the whole namespace's
    del ns["t2"]  # NB: an int64 one, in the window
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["changed"], msg["removed"]) == ([], ["t2"])
    ns["t1"] = torch.zeros(3)  # NB: outside the window: only the totals change
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["changed"], msg["removed"], msg["snapshot"]["objects"]) == ([], [], [])
    assert bridge.push() == 0  # NB: nothing changed: nothing sent


def test_a_page_past_the_end_is_empty_and_says_how_many_there_are() -> None:
    ns = loose(30)
    _, comm = opened(ns)
    comm.take()
    [msg] = comm.request("rows", {"offset": 100}, rid="end")
    assert (names(msg), msg["window"]["matched"], msg["window"]["total"]) == ([], 30, 30)


@pytest.mark.parametrize(("params", "says"), [
    ({"limit": 0}, "params.limit must be an integer from 1 to 2000, got 0"),
    ({"limit": 5000}, "params.limit must be an integer from 1 to 2000, got 5000"),
    ({"offset": -1}, "params.offset must be a non-negative integer, got -1"),
    ({"offset": 1.5}, "params.offset must be a non-negative integer, got 1.5"),
    ({"sort": "size"}, "params.sort must be one of name, kind, device, dtype, shape, bytes"),
    ({"ascending": "yes"}, "params.ascending must be true or false, got 'yes'"),
    ({"filter": 5}, "params.filter must be a string of at most 1000 characters, got 5"),
    ({"filter": "x" * 1001}, "params.filter must be a string of at most 1000 characters"),
    ({"page": 2}, "rows: unexpected param 'page'"),
])
def test_malformed_page_requests_get_a_clear_error(params: dict[str, Any], says: str) -> None:
    ns = loose(5)
    bridge, comm = opened(ns)
    comm.take()
    before = bridge.spec
    [msg] = comm.request("rows", params, rid="bad")
    assert (msg["type"], msg["request_id"], msg["error"]) == ("error", "bad", "bad_request")
    assert says in msg["detail"]
    assert bridge.spec == before  # NB: the window is as it was


def test_a_malformed_window_on_open_is_refused_and_the_default_one_sent() -> None:
    ns = loose(5)
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION, "window": {"limit": "all"}}) is True
    _, error, first = comm.take()
    assert (error["type"], error["error"]) == ("error", "bad_request")
    assert "params.limit must be" in error["detail"]
    assert first["window"]["limit"] == DEFAULT_LIMIT and len(names(first)) == 5


def test_a_window_on_open_is_the_first_frames() -> None:
    ns = loose(50)
    _, comm = opened(ns, limit=10, sort="dtype", ascending=False)
    first = comm.take()[1]
    want = expected(ns, lambda t: str(t.dtype).removeprefix("torch."), descending=True)[:10]
    assert names(first) == want


def test_names_sort_case_insensitively_ties_by_name_either_way() -> None:
    ns = {n: torch.zeros(1) for n in ("beta", "Alpha", "alpha", "Gamma", "delta", "ALPHA")}
    _, comm = opened(ns)
    assert names(comm.take()[1]) == ["ALPHA", "Alpha", "alpha", "beta", "delta", "Gamma"]
    [msg] = comm.request("rows", {"ascending": False}, rid="d")
    assert names(msg) == ["Gamma", "delta", "beta", "ALPHA", "Alpha", "alpha"]
    lower = {n.lower() + str(i): torch.zeros(1) for i, n in enumerate(ns)}  # NB: no capital
    _, comm = opened(lower, ascending=False)
    assert names(comm.take()[1]) == sorted(lower, reverse=True)


def test_a_cell_that_rebinds_names_orders_nothing_again(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """By name, the order depends only on the names and the flagged rows: a cell that keeps
    both reuses it; a new name is ordered again, and lands where it belongs."""
    from devicelens.jupyter import _window

    ns = {f"t{i}": torch.zeros(i % 7 + 1) for i in range(400)}
    ns["model"] = torch.nn.Linear(2, 2)  # NB: float32: a float64 tensor is then flagged
    bridge, comm = opened(ns)
    bridge.push()  # NB: the live snapshot starts here
    comm.take()
    calls: list[int] = []
    real = _window.order

    def counted(*a: Any, **k: Any) -> Any:
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(_window, "order", counted)
    ns["t0"] = torch.ones(3)  # NB: float32 as before: no finding changes
    ns["t7"] = torch.ones(5)
    assert bridge.push() == 1
    [msg] = comm.take()
    assert calls == [] and msg["changed"] == ["t0"]  # NB: t7 is past the first page
    ns["a_new"] = torch.zeros(1)  # NB: a new name: put in its place, nothing sorted again
    ns["t42"] = torch.zeros(2, dtype=torch.float64)  # NB: now flagged (no other is float64)
    assert bridge.push() == 1
    [msg] = comm.take()
    flagged = {n for f in diagnose(take_snapshot(ns)) for n in f.objects}
    assert flagged == {"t42"}
    assert calls == [] and names(msg) == ["t42", "a_new"]  # NB: the rows new to the page
    want = sorted(ns, key=lambda n: (n not in flagged, n.lower(), n))[:DEFAULT_LIMIT]
    assert msg["window"]["names"] == want
    ns["t42"] = torch.zeros(2)  # NB: no longer flagged: back in its place
    assert bridge.push() == 1
    [msg] = comm.take()
    assert calls == [] and msg["window"]["names"] == sorted(ns, key=str.lower)[:DEFAULT_LIMIT]


def test_a_page_moved_by_a_row_reads_only_the_records_that_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell that flags one name moves the page by a row (the flagged row comes first): the
    rows already sent whose records did not change are taken as sent, and only the records
    of the changed names are read (a page of 200 records read anew cost a k = 1 push about
    1 ms at 10k names). The page is still exactly what a panel opened now is sent."""
    from devicelens.jupyter import _window

    ns = {f"t{i}": torch.zeros(i % 7 + 1) for i in range(400)}
    ns["model"] = torch.nn.Linear(2, 2)  # NB: float32: a float64 tensor is then flagged
    bridge, comm = opened(ns)
    bridge.push()  # NB: the live snapshot starts here
    comm.take()
    read: list[str] = []
    real = _window.records_of

    def counted(snap: Any, wanted: list[str]) -> Any:
        read.extend(wanted)
        return real(snap, wanted)

    monkeypatch.setattr(_window, "records_of", counted)
    ns["t42"] = torch.zeros(2, dtype=torch.float64)  # NB: flagged: first on the page now
    ns["t1"] = torch.ones(9)  # NB: on the page before and after, its record changed
    assert bridge.push() == 1
    [msg] = comm.take()
    assert set(read) == {"t42", "t1"}
    assert msg["window"]["names"][:2] == ["t42", "model"]  # NB: every row after moved by one
    assert {o["name"] for o in msg["snapshot"]["objects"]} == {"t42", "t1"}
    _, fresh = opened(ns)
    first = fresh.take()[1]
    assert first["window"]["names"] == msg["window"]["names"]
    rows, _window_sent = bridge._pager.last[2]
    assert rows == {o["name"]: o for o in first["snapshot"]["objects"]}
