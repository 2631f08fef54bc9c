"""A queued Apply carries out the fix that was approved or none (issue 38, item 2): a finding's
id covers what its fix does, so when a running cell changes the fix (``model.half()`` turns
``x = x.float()`` into ``x = x.half()``), the queued request is refused as stale, nothing is
changed, and the panel is sent the new fix."""

from __future__ import annotations

from typing import Any

import torch

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter._gate import Gate
from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


class Info:
    """Stands for IPython's ExecutionInfo: the gate only compares identities."""


class Result:
    def __init__(self, info: object) -> None:
        self.info = info


def dtype_fix(ns: dict[str, Any]) -> Any:
    (f,) = [f for f in diagnose(take_snapshot(ns)) if f.kind == "loose_dtype"]
    return f


def test_a_queued_fix_whose_target_changed_is_refused_as_stale() -> None:
    x = torch.ones(2, dtype=torch.float64)
    ns: dict[str, Any] = {"model": torch.nn.Linear(2, 2), "x": x}
    approved = dtype_fix(ns)
    assert (approved.fix, approved.action.dtype) == ("x = x.float()", "float32")
    gate = Gate()
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns, gate=gate)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    cell = Info()
    gate.pre_run_cell(cell)
    sent = comm.request("apply_fix", {"finding_id": approved.id}, rid="a1")
    assert [m["type"] for m in sent] == ["queued"]
    ns["model"].half()  # the running cell changes what the fix would do
    now = dtype_fix(ns)
    assert (now.fix, now.action.dtype) == ("x = x.half()", "float16")
    assert now.id != approved.id
    gate.post_run_cell(Result(cell))
    sent = comm.take()
    assert [m["type"] for m in sent] == ["snapshot", "error"]
    assert (sent[1]["request_id"], sent[1]["error"]) == ("a1", "stale_finding")
    assert [f["fix"] for f in sent[0]["findings"] if f["kind"] == "loose_dtype"] == [
        "x = x.half()"]
    assert ns["x"] is x and x.dtype == torch.float64  # nothing was cast


def test_an_unchanged_queued_fix_still_runs() -> None:
    x = torch.ones(2, dtype=torch.float64)
    ns: dict[str, Any] = {"model": torch.nn.Linear(2, 2), "x": x}
    approved = dtype_fix(ns)
    gate = Gate()
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns, gate=gate)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    cell = Info()
    gate.pre_run_cell(cell)
    assert [m["type"] for m in comm.request("apply_fix", {"finding_id": approved.id},
                                            rid="a2")] == ["queued"]
    gate.post_run_cell(Result(cell))
    results = [m for m in comm.take() if m["type"] == "result"]
    assert [r["request_id"] for r in results] == ["a2"]
    assert ns["x"].dtype == torch.float32


def test_a_rehearsal_asked_while_a_cell_runs_waits_for_it_and_rehearses_the_fix_then() -> None:
    """"Insert as cell" forks the kernel to rehearse the fix: never while a cell runs (the copy
    would be taken mid-cell); it runs when the cell ends, on the namespace the cell left."""
    x = torch.ones(2, dtype=torch.float64)
    ns: dict[str, Any] = {"model": torch.nn.Linear(2, 2), "x": x}
    asked = dtype_fix(ns)
    gate = Gate()
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns, gate=gate)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    cell = Info()
    gate.pre_run_cell(cell)
    assert [m["type"] for m in comm.request("rehearse_fix", {"finding_id": asked.id},
                                            rid="r1")] == ["queued"]
    gate.post_run_cell(Result(cell))
    [reply] = [m for m in comm.take() if m.get("request_id") == "r1"]
    assert reply["result"] == {
        "finding_id": asked.id, "fix": "x = x.float()",
        "verdict": "verified: rehearsed on a copy of this kernel's state, the fix runs, does no "
                   "harm and clears this finding"}
    assert ns["x"] is x and x.dtype == torch.float64  # the rehearsal's cast was the copy's
