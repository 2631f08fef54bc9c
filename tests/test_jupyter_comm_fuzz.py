"""Fuzzing the kernel end of the comm: malformed, unknown, oversized, out-of-order and stale
messages each get exactly one error reply, nothing escapes the handler, the namespace is left
exactly as it was, and no reply goes over the payload cap."""

from __future__ import annotations

import threading
from typing import Any

import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from torch import nn

from devicelens.jupyter._protocol import ERROR_CODES, MAX_PAYLOAD_BYTES, PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def make_ns() -> dict[str, Any]:
    with torch.no_grad():
        model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2))
        split = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    split[1].to("meta")
    latent = nn.Linear(2, 2)
    latent.scale = torch.ones(2)  # a plain tensor attribute: an info finding without a fix
    return {"model": model, "split": split, "latent": latent, "x": torch.ones(2, 3),
            "opt": torch.optim.SGD(model.parameters(), lr=0.1), "n": 3}


def fingerprint(ns: dict[str, Any]) -> dict[str, Any]:
    """Identity and placement of everything the bridge could touch."""
    out: dict[str, Any] = {}
    for name, obj in ns.items():
        if isinstance(obj, nn.Module):
            out[name] = (id(obj), [(id(t), str(t.device), t.dtype) for t in
                                   [*obj.parameters(), *obj.buffers(), *vars(obj).values()]
                                   if isinstance(t, torch.Tensor)])
        elif isinstance(obj, torch.Tensor):
            out[name] = (id(obj), str(obj.device), obj.dtype, tuple(obj.shape))
        else:
            out[name] = id(obj)
    return out


def opened() -> tuple[FakeComm, dict[str, Any]]:
    _, comm, ns = opened_bridge()
    return comm, ns


def opened_bridge() -> tuple[Bridge, FakeComm, dict[str, Any]]:
    ns = make_ns()
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    return bridge, comm, ns


def assert_one_error(comm: FakeComm, data: object) -> dict[str, Any]:
    sent = comm.take()
    assert [m["type"] for m in sent] == ["error"], (data, sent)
    assert sent[0]["error"] in ERROR_CODES and sent[0]["detail"]
    assert all(size <= MAX_PAYLOAD_BYTES for size in comm.sizes)
    return sent[0]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=12)

BASE = {"type": "request", "protocol": PROTOCOL_VERSION, "request_id": "fz"}
GOOD_PARAMS = {"refresh": {}, "list_devices": {}, "expand": {"name": "model"},
               "move_all": {"device": "meta", "dry_run": True}, "apply_fix": {"finding_id": "x"}}


#: what each field of a good request may hold (from the protocol spec; an independent oracle)
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "type": (str,), "protocol": (int,), "request_id": (str,), "method": (str,), "params": (dict,),
    "name": (str,), "device": (str,), "dry_run": (bool,), "finding_id": (str,)}
PARAM_KEYS = {"name", "path", "offset", "device", "dry_run", "names", "finding_id"}


def wrong_for(field: str) -> st.SearchStrategy[Any]:
    """Values that cannot be right for ``field``: another JSON type (any int but 1 for the
    protocol; NB: JSON ``true`` is not the protocol 1)."""
    if field == "protocol":
        return json_values.filter(lambda v: not (type(v) is int and v == PROTOCOL_VERSION))
    ok = FIELD_TYPES[field]
    return json_values.filter(lambda v: type(v) not in ok)


@st.composite
def corrupted(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed request with one thing broken, invalid by construction."""
    method = draw(st.sampled_from(sorted(GOOD_PARAMS)))
    msg: dict[str, Any] = {**BASE, "method": method, "params": dict(GOOD_PARAMS[method])}
    how = draw(st.sampled_from(["drop", "replace", "extra", "param", "extra_param"]))
    if how == "drop":
        del msg[draw(st.sampled_from(sorted(msg)))]
    elif how == "replace":
        key = draw(st.sampled_from(sorted(msg)))
        msg[key] = draw(wrong_for(key))
    elif how == "extra":
        msg[draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in msg))] = draw(
            json_values)
    elif how == "param" and msg["params"]:
        key = draw(st.sampled_from(sorted(msg["params"])))
        msg["params"][key] = draw(wrong_for(key))
    else:
        key = draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in PARAM_KEYS))
        msg["params"][key] = draw(json_values)
    return msg


def not_a_device_here(d: str) -> bool:
    return d not in ("cpu", "meta") and d.removesuffix(":0") not in ("cpu", "meta")


@st.composite
def semantically_bad(draw: st.DrawFn) -> dict[str, Any]:
    """Well-formed but wrong now: bad devices, unknown names, stale finding ids, wrong paths."""
    kind = draw(st.sampled_from(["device", "names", "finding", "expand", "path"]))
    if kind == "device":
        device = draw(st.sampled_from(["cuda:7", "cuda", "xpu:1", "CPU", "cpu:1", "meta:2",
                                       "os.system('ls')"]) | st.text(min_size=1, max_size=64))
        assume(not_a_device_here(device))
        params: dict[str, Any] = {"device": device, "dry_run": draw(st.booleans())}
    elif kind == "names":
        params = {"device": "meta", "names": draw(st.lists(
            st.text(min_size=1, max_size=20).filter(lambda n: n not in make_ns()),
            min_size=1, max_size=3))}
    elif kind == "finding":
        params = {"finding_id": draw(st.text(min_size=1, max_size=40))}
    elif kind == "expand":
        params = {"name": draw(st.sampled_from(["n", "nope", "opt ", "__builtins__"]))}
    else:
        params = {"name": "model", "path": draw(st.text(min_size=1, max_size=30).filter(
            lambda p: not p.startswith("model")))}
    method = {"device": "move_all", "names": "move_all", "finding": "apply_fix"}.get(
        kind, "expand")
    return {**BASE, "method": method, "params": params}


@FUZZ
@given(data=json_values)
def test_arbitrary_json_gets_one_error(data: object) -> None:
    assume(not (isinstance(data, dict) and data.get("type") == "request"))
    comm, ns = opened()
    before = fingerprint(ns)
    comm.deliver(data)
    assert_one_error(comm, data)
    assert fingerprint(ns) == before


@FUZZ
@given(data=corrupted())
def test_corrupted_requests_get_one_error(data: dict[str, Any]) -> None:
    comm, ns = opened()
    before = fingerprint(ns)
    comm.deliver(data)
    reply = assert_one_error(comm, data)
    rid = data.get("request_id")
    assert reply["request_id"] == (rid if isinstance(rid, str) and 0 < len(rid) <= 128
                                   else None)
    assert fingerprint(ns) == before


@FUZZ
@given(data=semantically_bad())
def test_stale_and_wrong_requests_get_one_error(data: dict[str, Any]) -> None:
    comm, ns = opened()
    before = fingerprint(ns)
    comm.deliver(data)
    sent = comm.take()
    # NB: a stale finding id also brings the panel's findings up to date (when they changed)
    *pushes, reply = sent
    assert all(m["type"] == "snapshot" for m in pushes)
    assert reply["type"] == "error" and reply["request_id"] == "fz"
    expected = {"device": {"bad_device"}, "finding": {"stale_finding"}}
    assert reply["error"] in expected.get(_kind(data), {"bad_request"}), reply
    assert fingerprint(ns) == before


def _kind(data: dict[str, Any]) -> str:
    params = data["params"]
    if "device" in params and "names" not in params:
        return "device"
    return "finding" if "finding_id" in params else "other"


def finding_ids() -> list[str]:
    from devicelens.analysis import diagnose
    from devicelens.inspect import take_snapshot

    return [f.id for f in diagnose(take_snapshot(make_ns()))]


@st.composite
def read_only(draw: st.DrawFn) -> dict[str, Any]:
    """Valid requests that must not change anything: reads and dry runs."""
    names = sorted(k for k in make_ns() if k != "n")
    method = draw(st.sampled_from(["refresh", "list_devices", "expand", "move_all",
                                   "apply_fix"]))
    params: dict[str, Any] = {}
    if method == "expand":
        params = {"name": draw(st.sampled_from(names))}
    elif method == "move_all":
        params = {"device": draw(st.sampled_from(["cpu", "meta", "meta:0"])), "dry_run": True,
                  "names": draw(st.none() | st.lists(st.sampled_from(names), min_size=1,
                                                     unique=True))}
    elif method == "apply_fix":
        ids = finding_ids()
        assert len(ids) == 2  # split (module_split) and latent (trap_latent, no action)
        params = {"finding_id": ids[0], "dry_run": True}
    return {**BASE, "method": method, "params": params}


@FUZZ
@given(data=read_only())
def test_reads_and_dry_runs_answer_once_and_change_nothing(data: dict[str, Any]) -> None:
    comm, ns = opened()
    before = fingerprint(ns)
    comm.deliver(data)
    final = [m for m in comm.take() if m["type"] != "progress"]
    allowed = [("snapshot" if data["method"] == "refresh" else "result", "fz")]
    if data["method"] == "move_all":  # NB: a dry run predicts refusals (a copy out of meta)
        allowed.append(("error", "fz"))
    assert len(final) == 1 and (final[0]["type"], final[0]["request_id"]) in allowed, final
    assert final[0]["type"] != "error" or final[0]["error"] == "move_failed"
    assert fingerprint(ns) == before


@FUZZ
@given(method=st.sampled_from(["hello", "snapshot", "result", "progress", "error"]),
       extra=st.dictionaries(st.sampled_from(["seq", "protocol", "version", "detail"]),
                             json_values, max_size=3))
def test_kernel_bound_messages_echoed_back_are_refused(method: str, extra: dict[str, Any]) -> None:
    comm, _ = opened()
    comm.deliver({"type": method, "request_id": "fz", **extra})
    assert assert_one_error(comm, method)["error"] in ("bad_request", "protocol_mismatch")


@FUZZ
@given(size=st.integers(MAX_PAYLOAD_BYTES // 10, MAX_PAYLOAD_BYTES * 3),
       where=st.sampled_from(["params", "request_id", "nested"]))
def test_oversized_requests_are_refused_unread(size: int, where: str) -> None:
    comm, _ = opened()
    msg: dict[str, Any] = {**BASE, "method": "refresh", "params": {}}
    if where == "params":
        msg["params"] = {"name": "x" * size}
    elif where == "request_id":
        msg["request_id"] = "r" * size
    else:
        msg["params"] = {"deep": [[["y" * 1000] * 10] * 10] * (size // 100_000 + 1)}
    comm.deliver(msg)
    reply = assert_one_error(comm, where)
    assert reply["error"] == "too_large"
    assert reply["request_id"] == ("fz" if where != "request_id" else None)


def test_requests_from_other_threads_while_the_namespace_changes() -> None:
    """ipykernel 7 may hand comm messages to a subshell thread while a cell runs."""
    bridge, comm, ns = opened_bridge()
    msgs = [{**BASE, "request_id": f"t{i}", "method": m, "params": p}
            for i, (m, p) in enumerate([("refresh", {}), ("expand", {"name": "model"}),
                                        ("list_devices", {}), ("expand", {"name": "gone"}),
                                        ("move_all", {"device": "cuda:9"})] * 30)]
    errors: list[BaseException] = []

    def serve(chunk: list[dict[str, Any]]) -> None:
        try:
            for m in chunk:
                comm.deliver(m)
        except BaseException as e:  # pragma: no cover - the assertion below reports it
            errors.append(e)

    threads = [threading.Thread(target=serve, args=(msgs[i::3],)) for i in range(3)]
    for t in threads:
        t.start()
    for i in range(200):  # the "cell": rebinding and deleting names, then the post-cell push
        ns[f"tmp{i % 7}"] = torch.zeros(i % 5 + 1)
        ns.pop(f"tmp{(i + 3) % 7}", None)
        bridge.push()
    for t in threads:
        t.join()
    assert errors == []
    final = [m for m in comm.sent if (m.get("request_id") or "").startswith("t")
             and m["type"] != "progress"]
    assert sorted(m["request_id"] for m in final) == sorted(m["request_id"] for m in msgs)
    by_rid = {m["request_id"]: m for m in final}
    assert by_rid["t3"]["error"] == "bad_request" and by_rid["t4"]["error"] == "bad_device"
    assert by_rid["t1"]["result"]["name"] == "model"
    seqs = [m["seq"] for m in comm.sent if m["type"] == "snapshot"]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
