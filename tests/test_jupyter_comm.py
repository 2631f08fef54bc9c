"""The comm bridge with a recording fake comm: hello, pushes, diffs, caps, expand, errors."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import devicelens
from devicelens.jupyter import _push
from devicelens.jupyter._protocol import MAX_PAYLOAD_BYTES, PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


def linear_stack(n: int) -> torch.nn.Module:
    with torch.no_grad():
        return torch.nn.Sequential(*[torch.nn.Linear(2, 2) for _ in range(n)])


@pytest.fixture
def ns() -> dict[str, Any]:
    return {"x": torch.zeros(3, 4), "model": linear_stack(2), "n": 5, "_hidden": torch.ones(1)}


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


def row(msg: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in msg["snapshot"]["objects"] if o["name"] == name)


# --- open -----------------------------------------------------------------------------------

def test_open_sends_hello_then_a_full_snapshot(ns: dict[str, Any]) -> None:
    _, comm = opened(ns)
    hello, snap = comm.take()
    assert hello == {"type": "hello", "protocol": PROTOCOL_VERSION,
                     "version": devicelens.__version__}
    assert (snap["type"], snap["seq"], snap["request_id"]) == ("snapshot", 1, None)
    assert (snap["changed"], snap["removed"]) == (None, [])
    assert names(snap) == ["model", "x"]  # NB: the window's order: by name
    assert (snap["window"]["names"], snap["window"]["matched"], snap["window"]["total"]) == (
        ["model", "x"], 2, 2)
    x = row(snap, "x")
    assert (x["kind"], x["devices"], x["dtypes"], x["shape"], x["bytes"]) == (
        "tensor", ["cpu"], ["float32"], [3, 4], 48)
    model = row(snap, "model")
    assert [c["path"] for c in model["children"]] == [
        "model.0.weight", "model.0.bias", "model.1.weight", "model.1.bias"]
    assert snap["snapshot"]["torch_version"] == torch.__version__
    assert snap["findings"] == []


@pytest.mark.parametrize("panel", [PROTOCOL_VERSION + 1, "1", 0])
def test_protocol_mismatch_on_open_is_an_error_and_every_request_refused(
        ns: dict[str, Any], panel: object) -> None:
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": panel}) is False
    hello, err = comm.take()
    assert hello["type"] == "hello"
    assert (err["type"], err["error"], err["request_id"]) == ("error", "protocol_mismatch", None)
    assert f"(protocol {PROTOCOL_VERSION}), panel protocol {panel!r}" in err["detail"]
    assert "reinstall" in err["detail"] and devicelens.__version__ in err["detail"]
    [reply] = comm.request("refresh", rid="q")
    assert (reply["error"], reply["request_id"]) == ("protocol_mismatch", "q")
    assert bridge.push() == 0 and comm.sent == []


def test_request_with_another_protocol_is_refused(ns: dict[str, Any]) -> None:
    _, comm = opened(ns)
    comm.take()
    [reply] = comm.request("refresh", protocol=PROTOCOL_VERSION + 7)
    assert reply["error"] == "protocol_mismatch"
    assert f"panel protocol {PROTOCOL_VERSION + 7}" in reply["detail"]


# --- pushes ---------------------------------------------------------------------------------

def test_push_sends_only_when_something_changed(ns: dict[str, Any]) -> None:
    bridge, comm = opened(ns)
    comm.take()
    assert bridge.push() == 0 and comm.sent == []
    ns["y"] = torch.ones(2, dtype=torch.float16)
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["seq"], msg["changed"], msg["removed"]) == (2, ["y"], [])  # only the new row
    assert names(msg) == ["y"]
    assert msg["snapshot"]["objects"][0]["dtypes"] == ["float16"]
    ns["model"][0].to("meta")  # in place: same object, new device
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["seq"], msg["changed"]) == (3, ["model"])
    assert sorted(msg["snapshot"]["objects"][0]["devices"]) == ["cpu", "meta"]
    split, dtype = msg["findings"]  # errors first
    assert (split["kind"], split["severity"], split["applicable"]) == (
        "module_split", "error", True)
    assert (dtype["kind"], dtype["objects"], dtype["dtypes"]) == (
        "loose_dtype", ["y"], ["float16", "float32"])


def test_every_push_after_the_first_sends_only_changed_rows(ns: dict[str, Any]) -> None:
    for i in range(250):
        ns[f"t{i}"] = torch.zeros(i % 7 + 1)
    bridge, comm = opened(ns, limit=300)
    first = comm.take()[1]
    assert first["changed"] is None and len(first["snapshot"]["objects"]) == 252
    ns["t5"] = torch.zeros(2, device="meta")
    del ns["t6"]
    ns["new"] = torch.ones(1, dtype=torch.int64)
    assert bridge.push() == 1
    [msg] = comm.take()
    assert (msg["seq"], msg["changed"], msg["removed"]) == (2, ["t5", "new"], ["t6"])
    t5, new = msg["snapshot"]["objects"]
    assert (t5["devices"], new["dtypes"]) == (["meta"], ["int64"])
    assert {t["device"]: t["objects"] for t in msg["snapshot"]["totals"]} == {
        "cpu": 251, "meta": 1}


def test_refresh_replies_with_a_full_snapshot_even_when_unchanged(ns: dict[str, Any]) -> None:
    _, comm = opened(ns)
    comm.take()
    [msg] = comm.request("refresh", rid="abc")
    assert (msg["type"], msg["seq"], msg["request_id"], msg["changed"]) == (
        "snapshot", 2, "abc", None)
    assert names(msg) == ["model", "x"]


def test_pushes_over_the_cap_are_split_into_consecutive_messages() -> None:
    ns: dict[str, Any] = {f"model_{i:03d}": linear_stack(30) for i in range(240)}  # ~16 kB rows
    _, comm = opened(ns)
    msgs = comm.take()[1:]
    assert len(msgs) >= 3
    assert all(size <= MAX_PAYLOAD_BYTES for size in comm.sizes)
    assert [m["seq"] for m in msgs] == list(range(1, len(msgs) + 1))
    assert msgs[0]["changed"] is None
    for m in msgs[1:]:
        assert m["changed"] == names(m) and m["removed"] == []
    assert [n for m in msgs for n in names(m)] == sorted(ns)[:200] == msgs[0]["window"]["names"]
    assert all(m["snapshot"]["totals"] == msgs[0]["snapshot"]["totals"] for m in msgs)
    assert all(m["window"] == msgs[0]["window"] for m in msgs)
    # NB: sizes are summed, not re-encoded: a miscount would leave full messages short of the
    # cap (the first one, which names no rows in ``changed``, reserves room for those names)
    full = comm.sizes[2:-1]
    biggest = max(_push.size(o) for m in msgs for o in m["snapshot"]["objects"])
    assert full and all(n > MAX_PAYLOAD_BYTES - _push.ENVELOPE_BYTES - biggest for n in full)


_TEXT = st.text(st.characters(codec=None, blacklist_categories=()), max_size=12)
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=12)


@settings(derandomize=True, max_examples=200)
@given(items=st.lists(_JSON, max_size=6), text=_TEXT)
def test_sizes_summed_from_parts_are_the_sizes_the_wire_encodes(items: list[Any],
                                                                 text: str) -> None:
    """A list's size from its items' sizes, and a name's without the encoder's Python layers:
    byte for byte what the session's JSON (UTF-8, ensure_ascii off) writes."""
    def wire(x: object) -> int:  # NB: json.dumps as the kernel session calls it
        return len(json.dumps(x, ensure_ascii=False).encode("utf-8", "replace"))

    assert _push.size(items) == wire(items)
    assert _push.list_size([wire(x) for x in items]) == wire(items)
    assert _push.text_size(text) == wire(text)


def test_a_frames_findings_size_is_their_encoded_size() -> None:
    ns = {f"é_{i}": torch.zeros(2, dtype=torch.float16 if i % 2 else torch.float32)
          for i in range(40)}
    ns["model"] = linear_stack(2)
    ns["model"][0].to("meta")
    frame = _push.build_frame(ns)
    assert len(frame.findings) >= 2
    assert frame.findings_size() == _push.size(frame.findings)
    ns["extra"] = torch.zeros(1, dtype=torch.int8)
    frame = _push.build_frame(ns)
    assert frame.findings_size() == _push.size(frame.findings)


def test_big_objects_ship_children_lazily(ns: dict[str, Any]) -> None:
    ns["big"] = linear_stack(40)  # 80 tensors > EAGER_CHILDREN
    _, comm = opened(ns)
    big = row(comm.take()[1], "big")
    assert (big["name"], big["tensors"], big["children"], big["expandable"]) == (
        "big", 80, None, True)
    assert len(big["modules"]) == 41


def test_no_push_and_empty_snapshot_without_torch(ns: dict[str, Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "torch")
    frame = _push.build_frame(ns)
    assert (frame.snapshot, frame.findings, frame.base["torch_version"]) == (None, [], None)
    assert "torch" not in sys.modules


def test_closed_bridge_sends_nothing(ns: dict[str, Any]) -> None:
    closed = []
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns, on_close=closed.append)
    bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    comm.panel_close()
    assert closed == [bridge] and bridge.closed
    ns["y"] = torch.ones(1)
    assert bridge.push() == 0
    comm.deliver({"type": "request"})
    assert comm.sent == []


# --- expand / list_devices ------------------------------------------------------------------

def test_expand_returns_every_module_and_tensor(ns: dict[str, Any]) -> None:
    ns["big"] = linear_stack(40)
    _, comm = opened(ns)
    [reply] = comm.request("expand", {"name": "big"}, rid="e1")
    assert (reply["type"], reply["request_id"], reply["method"]) == ("result", "e1", "expand")
    res = reply["result"]
    assert (res["name"], res["path"], res["offset"], res["next_offset"]) == ("big", "", 0, None)
    obj = res["object"]
    assert len(obj["children"]) == 80 and len(obj["modules"]) == 41
    assert obj["children"][79] == {"path": "big.39.bias", "role": "parameter", "owner": "big.39",
                                   "device": "cpu", "dtype": "float32", "shape": [2],
                                   "bytes": 8, "requires_grad": True}


def test_expand_narrows_to_a_submodule(ns: dict[str, Any]) -> None:
    ns["big"] = linear_stack(40)
    _, comm = opened(ns)
    [reply] = comm.request("expand", {"name": "big", "path": "big.3"})
    obj = reply["result"]["object"]
    assert [c["path"] for c in obj["children"]] == ["big.3.weight", "big.3.bias"]
    assert [m["path"] for m in obj["modules"]] == ["big.3"]


def test_expand_pages_children_under_the_cap() -> None:
    with torch.no_grad():
        plist = torch.nn.ParameterList(torch.nn.Parameter(torch.zeros(1)) for _ in range(8000))
    ns = {"plist": plist}
    _, comm = opened(ns)
    paths: list[str] = []
    offset: int | None = 0
    while offset is not None:
        [reply] = comm.request("expand", {"name": "plist", "offset": offset})
        res = reply["result"]
        assert res["offset"] == offset
        paths += [c["path"] for c in res["object"]["children"]]
        offset = res["next_offset"]
    assert len(comm.sizes) > 2 and max(comm.sizes) <= MAX_PAYLOAD_BYTES
    assert paths == [f"plist.{i}" for i in range(8000)]


@pytest.mark.parametrize(("params", "needle"), [
    ({"name": "nope"}, "no name 'nope'"),
    ({"name": "n"}, "n holds no tensors"),
    ({"name": "model", "path": "model.9"}, "'model.9' is not inside model"),
])
def test_expand_errors(ns: dict[str, Any], params: dict[str, Any], needle: str) -> None:
    _, comm = opened(ns)
    [reply] = comm.request("expand", params, rid="e2")
    assert (reply["type"], reply["error"], reply["request_id"]) == ("error", "bad_request", "e2")
    assert needle in reply["detail"]


def test_list_devices(ns: dict[str, Any]) -> None:
    _, comm = opened(ns)
    [reply] = comm.request("list_devices")
    devices = reply["result"]["devices"]
    assert devices[0] == {"name": "cpu", "kind": "cpu", "free_bytes": None, "total_bytes": None}
    assert devices[-1]["name"] == "meta"


# --- malformed requests ---------------------------------------------------------------------

@pytest.mark.parametrize(("data", "code", "rid", "needle"), [
    ("refresh", "bad_request", None, "a request is a JSON object, not 'refresh'"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "method": "refresh", "params": {}},
     "bad_request", None, "request_id must be"),
    ({"type": "hello", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "refresh",
      "params": {}}, "bad_request", "a", "type must be 'request', got 'hello'"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "exec",
      "params": {}}, "unknown_method", "a", "unknown method 'exec'; this kernel serves refresh"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "expand",
      "params": {"name": 3}}, "bad_request", "a", "params.name must be a non-empty string"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "move_all",
      "params": {"device": "meta", "code": "import os"}}, "bad_request", "a",
     "unexpected param 'code'"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "apply_fix",
      "params": {}}, "bad_request", "a", "missing param 'finding_id'"),
    ({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "a", "method": "refresh",
      "params": {"pad": "x" * 70_000}}, "too_large", "a", "over 64000 bytes"),
])
def test_malformed_requests_get_a_coded_error(ns: dict[str, Any], data: object, code: str,
                                              rid: str | None, needle: str) -> None:
    _, comm = opened(ns)
    comm.take()
    comm.deliver(data)
    [reply] = comm.take()
    assert (reply["type"], reply["error"], reply["request_id"]) == ("error", code, rid)
    assert needle in reply["detail"]


def test_a_message_without_content_is_answered(ns: dict[str, Any]) -> None:
    bridge, comm = opened(ns)
    comm.take()
    bridge.handle(None)
    [reply] = comm.take()
    assert (reply["error"], reply["request_id"]) == ("bad_request", None)


# --- moves ----------------------------------------------------------------------------------

def test_move_all_dry_run_changes_nothing(ns: dict[str, Any]) -> None:
    weight = ns["model"][0].weight
    _, comm = opened(ns)
    [reply] = comm.request("move_all", {"device": "meta", "dry_run": True}, rid="m1")
    report = reply["result"]["report"]
    assert (reply["type"], reply["method"], report["ok"], report["dry_run"]) == (
        "result", "move_all", True, True)
    assert [(m["path"], m["target"], m["bytes"]) for m in report["moved"]] == [
        ("model", "meta", 48), ("x", "meta", 48)]
    assert ns["model"][0].weight is weight and weight.device.type == "cpu"
    assert ns["x"].device.type == "cpu" and ns["_hidden"].device.type == "cpu"


def test_move_all_reports_progress_then_result_then_pushes(ns: dict[str, Any]) -> None:
    weight = ns["model"][0].weight
    _, comm = opened(ns)
    *progress, reply, push = comm.request("move_all", {"device": "meta", "names": ["model"]},
                                          rid="m2")
    assert progress and all(p["type"] == "progress" and p["request_id"] == "m2"
                            for p in progress)
    assert (progress[-1]["done"], progress[-1]["total"]) == (48, 48)
    assert reply["result"]["report"]["ok"] and not reply["result"]["report"]["dry_run"]
    assert (push["type"], push["seq"], push["request_id"]) == ("snapshot", 2, None)
    assert push["changed"] == ["model"]  # NB: x did not move: its row is not sent again
    assert {o["name"]: o["devices"] for o in push["snapshot"]["objects"]} == {"model": ["meta"]}
    assert ns["model"][0].weight is weight and weight.device.type == "meta"
    assert ns["x"].device.type == "cpu"


def test_move_that_fails_changes_nothing_and_says_why(ns: dict[str, Any]) -> None:
    ns["q"] = torch.quantize_per_tensor(torch.ones(2), 0.1, 0, torch.qint8)  # no meta kernel
    weight = ns["model"][0].weight
    _, comm = opened(ns)
    *_, reply = comm.request("move_all", {"device": "meta"}, rid="m3")
    assert (reply["type"], reply["error"], reply["request_id"]) == ("error", "move_failed", "m3")
    assert reply["detail"].startswith("moving q to meta failed: NotImplementedError")
    assert reply["detail"].endswith("nothing was changed") and len(reply["detail"]) < 500
    assert ns["model"][0].weight is weight and weight.device.type == "cpu"
    assert ns["q"].device.type == "cpu"


def test_apply_fix_by_id_then_the_finding_is_gone(ns: dict[str, Any]) -> None:
    ns["model"][1].to("meta")
    _, comm = opened(ns)
    [finding] = comm.take()[1]["findings"]
    *_, reply, push = comm.request("apply_fix", {"finding_id": finding["id"]}, rid="f1")
    assert (reply["type"], reply["method"], reply["result"]["finding_id"]) == (
        "result", "apply_fix", finding["id"])
    assert reply["result"]["report"]["ok"]
    assert push["type"] == "snapshot"
    # the split is gone; now x (cpu) is the odd one out next to an all-meta model
    assert [(f["kind"], f["objects"]) for f in push["findings"]] == [("loose_device", ["x"])]
    assert {p.device.type for p in ns["model"].parameters()} == {"meta"}
    *_, stale = comm.request("apply_fix", {"finding_id": finding["id"]}, rid="f2")
    assert (stale["type"], stale["error"], stale["request_id"]) == ("error", "stale_finding", "f2")


def test_apply_fix_is_rehearsed_first_and_says_so(ns: dict[str, Any]) -> None:
    """The panel's Apply, like ``%devices --fix``: rehearsed on a forked copy before it is
    applied; the report's first note is the verdict."""
    ns["model"][1].to("meta")
    _, comm = opened(ns)
    [finding] = comm.take()[1]["findings"]
    *_, reply, _push_msg = comm.request("apply_fix", {"finding_id": finding["id"]})
    notes = reply["result"]["report"]["notes"]
    # NB: with the model moved, x (cpu) is the odd one out: the next finding, said, not blamed
    assert notes[0] == ("verified: rehearsed on a copy of this kernel's state, the fix runs, "
                        "does no harm and clears this finding; next: x is not on meta")
    assert {p.device.type for p in ns["model"].parameters()} == {"meta"}


def test_apply_fix_that_would_do_harm_is_refused_and_nothing_moves(
        ns: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fix whose rehearsal unlinks the optimizer from the weights it trains is not applied."""
    from devicelens import moves

    ns["model"][1].to("meta")
    ns["opt"] = torch.optim.SGD(ns["model"].parameters(), lr=0.1)
    weights = list(ns["model"].parameters())

    def unlinking(finding: Any, copy: dict[str, Any], **kw: Any) -> Any:
        group = copy["opt"].param_groups[0]
        group["params"] = [torch.nn.Parameter(torch.empty_like(p)) for p in group["params"]]
        return None

    monkeypatch.setattr(moves, "apply_fix", unlinking)
    _, comm = opened(ns)
    [finding] = [f for f in comm.take()[1]["findings"] if f["applicable"]]
    [reply] = comm.request("apply_fix", {"finding_id": finding["id"]})
    assert (reply["error"], reply["detail"]) == (
        "move_failed", "nothing applied: the fixes would do harm: `opt` would no longer train "
        "4 of its parameters")
    assert list(ns["model"].parameters()) == weights
    assert [p.device.type for p in weights] == ["cpu", "cpu", "meta", "meta"]


def test_apply_fix_without_an_action_is_refused(ns: dict[str, Any]) -> None:
    ns["model"][0].scale = torch.ones(2)  # plain tensor attribute: info finding, fix by hand
    _, comm = opened(ns)
    [latent] = [f for f in comm.take()[1]["findings"] if f["kind"] == "trap_latent"]
    assert latent["applicable"] is False
    [reply] = comm.request("apply_fix", {"finding_id": latent["id"]})
    assert (reply["error"], reply["detail"]) == (
        "bad_request", f"finding {latent['id']} (trap_latent) has no automatic fix; run its code "
        "by hand")


@pytest.mark.parametrize(("device", "needle"), [
    ("cuda:7", "no such device: 'cuda:7'"),
    ("cpu:1", "cpu has no index"),
    ("torch.device('meta')", "is not a device name"),
])
def test_bad_devices(ns: dict[str, Any], device: str, needle: str) -> None:
    _, comm = opened(ns)
    [reply] = comm.request("move_all", {"device": device})
    assert (reply["error"], reply["request_id"]) == ("bad_device", "r1")
    assert needle in reply["detail"]
    assert ns["x"].device.type == "cpu"


def test_building_a_frame_leaves_the_gc_as_it_found_it(ns: dict[str, Any]) -> None:
    import gc

    gc.disable()
    try:
        _push.build_frame(ns)
        assert not gc.isenabled()
    finally:
        gc.enable()
    _push.build_frame(ns)
    assert gc.isenabled()


def test_rehearse_fix_gives_the_code_insert_puts_in_a_cell_and_its_verdict(
        ns: dict[str, Any]) -> None:
    """"Insert as cell" asks first: the finding's fix as code, run exactly as shown on a forked
    copy; the user's objects stay where they were."""
    ns["model"][1].to("meta")
    _, comm = opened(ns)
    [finding] = comm.take()[1]["findings"]
    [reply] = comm.request("rehearse_fix", {"finding_id": finding["id"]})
    assert reply["type"] == "result" and reply["method"] == "rehearse_fix"
    assert reply["result"] == {
        "finding_id": finding["id"], "fix": finding["fix"],
        "verdict": "verified: rehearsed on a copy of this kernel's state, the fix runs, does no "
                   "harm and clears this finding; next: x is not on meta"}
    assert [p.device.type for p in ns["model"].parameters()] == ["cpu", "cpu", "meta", "meta"]


def test_rehearse_fix_says_when_the_code_shown_would_do_harm(ns: dict[str, Any]) -> None:
    """A half-precision soft prompt an optimizer trains: the cast the finding shows would take
    it out of its optimizer; Insert says so in the cell rather than hand it over as a fix."""
    prompt = torch.nn.Parameter(torch.zeros(2, 8))
    ns.update(prompt=prompt, popt=torch.optim.Adam([prompt]))
    from devicelens.analysis import Finding
    from devicelens.guard import rehearsal

    f = Finding(id="f", kind="loose_dtype", severity="warning", title="prompt is float32",
                message="", fix="prompt = prompt.half()", paths=("prompt",), objects=("prompt",))
    verdict = rehearsal.rehearsed_code(f, ns, rehearsal.snapshot_diagnosis())
    assert verdict.startswith("not verified: the fix would do harm: "), verdict
    assert "prompt" in verdict and ns["prompt"] is prompt and prompt.dtype == torch.float32


def test_rehearse_fix_of_a_finding_gone_is_stale(
        ns: dict[str, Any]) -> None:
    ns["model"][1].to("meta")
    _, comm = opened(ns)
    [finding] = comm.take()[1]["findings"]
    ns["model"].to("meta")
    ns["x"] = ns["x"].to("meta")
    replies = comm.request("rehearse_fix", {"finding_id": finding["id"]})
    assert [m["type"] for m in replies] == ["snapshot", "error"]
    assert replies[1]["error"] == "stale_finding"
