"""A move-all dry run that refuses some objects answers with its report (refusals and their
reasons), not an error: the panel names what stays and offers to move the rest by name."""

from __future__ import annotations

from typing import Any

import torch

from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


def test_a_refused_dry_run_answers_with_the_refusals_and_the_rest_can_move_by_name() -> None:
    ns: dict[str, Any] = {"ghost": torch.zeros(2, device="meta"), "x": torch.ones(3)}
    comm = FakeComm()
    assert Bridge(comm, lambda: ns).open({"protocol": PROTOCOL_VERSION}) is True
    comm.take()
    [reply] = comm.request("move_all", {"device": "cpu", "dry_run": True}, rid="d1")
    assert (reply["type"], reply["request_id"]) == ("result", "d1")
    report = reply["result"]["report"]
    assert (report["ok"], report["dry_run"], report["moved"]) == (False, True, [])
    assert [r["path"] for r in report["refused"]] == ["ghost"]
    assert "is on meta, which holds no data" in report["refused"][0]["reason"]
    # the panel's selection, every other name, moves by name (to meta here: x is on the cpu)
    msgs = comm.request("move_all", {"device": "meta", "names": ["x"]}, rid="m1")
    [result] = [m for m in msgs if m["type"] == "result"]
    assert result["result"]["report"]["ok"] is True
    assert (ns["x"].device.type, ns["ghost"].device.type) == ("meta", "meta")


def test_a_refused_move_is_still_an_error() -> None:
    ns: dict[str, Any] = {"ghost": torch.zeros(2, device="meta")}
    comm = FakeComm()
    assert Bridge(comm, lambda: ns).open({"protocol": PROTOCOL_VERSION}) is True
    comm.take()
    [reply] = comm.request("move_all", {"device": "cpu"}, rid="m2")
    assert (reply["type"], reply["error"]) == ("error", "move_failed")
    assert ns["ghost"].device.type == "meta"
