"""Lone UTF-16 surrogates (issue 38, item 11): valid in a JSON string and in a Python name, but
not encodable as the UTF-8 the kernel's session sends. A request id holding one is answered
(as a bad request, without the id); a namespace name holding one is pushed escaped, and pushes
carry on."""

from __future__ import annotations

from typing import Any

import torch

from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


def opened(ns: dict[str, Any]) -> tuple[Bridge, FakeComm]:
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION}) is True
    comm.take()
    return bridge, comm


def test_a_request_id_with_a_lone_surrogate_gets_one_error_reply() -> None:
    _, comm = opened({"x": torch.ones(2)})
    sent = comm.request("refresh", rid="\ud800")
    assert sent == [{"type": "error", "request_id": None, "error": "bad_request",
                     "detail": "request_id must be a string of 1-128 characters (valid "
                               "Unicode), got '\\ud800'"}]
    assert [m["type"] for m in comm.request("refresh", rid="ok")] == ["snapshot"]


def test_params_with_lone_surrogates_are_answered_by_id() -> None:
    _, comm = opened({"x": torch.ones(2)})
    sent = comm.request("expand", {"name": "x\udfff"}, rid="e1")
    assert sent == [{"type": "error", "request_id": "e1", "error": "bad_request",
                     "detail": "expand: no name 'x\\udfff' in the namespace (deleted since "
                               "the last snapshot?)"}]
    sent = comm.request("move_all", {"device": "cpu\ud800"}, rid="m1")
    assert [(m["type"], m["request_id"], m["error"]) for m in sent] == [
        ("error", "m1", "bad_device")]


def test_a_name_with_a_lone_surrogate_is_pushed_escaped_and_pushes_go_on() -> None:
    ns: dict[str, Any] = {"x": torch.ones(2)}
    bridge, comm = opened(ns)
    ns["a\ud800"] = torch.ones(3)
    bridge.push()
    (snap,) = comm.take()
    assert (snap["type"], snap["changed"]) == ("snapshot", ["a\\ud800"])
    assert [o["name"] for o in snap["snapshot"]["objects"]] == ["a\\ud800"]
    del ns["a\ud800"]
    ns["y"] = torch.zeros(1)
    bridge.push()
    (snap,) = comm.take()
    assert (snap["type"], snap["changed"], snap["removed"]) == ("snapshot", ["y"], ["a\\ud800"])
    assert [o["name"] for o in snap["snapshot"]["objects"]] == ["y"]
    assert [o["name"] for o in comm.request("refresh")[0]["snapshot"]["objects"]] == ["x", "y"]
