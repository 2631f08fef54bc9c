"""Every value on the wire is plain JSON, and every request gets its one reply.

Regression: a jagged nested tensor's shape holds a ``SymInt``; ``json.dumps`` failed on it, every
push failed and ``refresh``/``expand`` got no reply at all.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import torch

from devicelens.inspect import take_snapshot
from devicelens.jupyter._protocol import (
    PROTOCOL_VERSION,
    object_to_wire,
    row_to_wire,
    rows_to_wire,
)
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


@pytest.fixture
def jagged() -> torch.Tensor:
    return torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(4, 3)], layout=torch.jagged)


def opened(ns: dict[str, Any], comm: FakeComm | None = None) -> tuple[Bridge, FakeComm]:
    comm = comm or FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION}) is True
    return bridge, comm


def test_a_jagged_nested_tensor_is_pushed_refreshed_and_expanded(jagged: torch.Tensor) -> None:
    assert any(type(d) is not int for d in jagged.shape)  # NB: the SymInt that broke the wire
    ns = {"nt": jagged, "batch": {"nt": jagged, "x": torch.zeros(2)}, "x": torch.ones(3)}
    _, comm = opened(ns)
    _hello, snap = comm.take()  # NB: FakeComm json-encodes every message, as the session does
    assert snap["type"] == "snapshot"
    rows = {o["name"]: o for o in snap["snapshot"]["objects"]}
    assert set(rows) == {"nt", "batch", "x"}
    assert rows["nt"]["shape"] == [] and rows["nt"]["devices"] == ["cpu"]
    assert rows["nt"]["children"] == []  # NB: a lone tensor's row is that tensor
    [reply] = comm.request("refresh", rid="r-refresh")
    assert (reply["type"], reply["request_id"]) == ("snapshot", "r-refresh")
    [page] = comm.request("expand", {"name": "batch"}, rid="r-expand")
    assert (page["type"], page["request_id"]) == ("result", "r-expand")
    assert {c["path"] for c in page["result"]["object"]["children"]} == {
        "batch['nt']", "batch['x']"}
    [page] = comm.request("expand", {"name": "nt"}, rid="r-nt")
    assert [(c["path"], c["shape"]) for c in page["result"]["object"]["children"]] == [("nt", [])]


class RefusesSnapshots(FakeComm):
    """A comm whose session cannot encode snapshot messages (what a non-JSON value caused)."""

    def send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        if data.get("type") == "snapshot":
            raise TypeError("Object of type SymInt is not JSON serializable")
        super().send(data, metadata, buffers)


def test_a_lone_tensors_row_is_its_tensor_and_loses_nothing(jagged: torch.Tensor) -> None:
    """The panel's row of a name bound to one tensor has no child: everything the child said
    but its requires_grad (the panel never draws it) is in the row. Any other row is
    ``object_to_wire``'s, children and all."""
    leaf = torch.ones(3, requires_grad=True)
    leaf.grad = torch.zeros(3)
    ns = {"plain": torch.zeros(2, 3), "scalar": torch.tensor(1.5, dtype=torch.float64),
          "view": torch.arange(6.0)[1:4], "leaf": leaf, "nt": jagged,
          "q": torch.quantize_per_tensor(torch.ones(4), 0.1, 0, torch.qint8),
          "sparse": torch.eye(3).to_sparse(), "empty": torch.empty(0, device="meta"),
          "model": torch.nn.Linear(2, 2), "pair": [torch.ones(1)]}
    snap = take_snapshot(ns)
    lone = set()
    for o in snap.objects:
        row, full = row_to_wire(o), object_to_wire(o)
        if o.kind != "tensor" or len(o.tensors) != 1:
            assert row == full, o.name
            continue
        lone.add(o.name)
        assert row == {**full, "children": []}
        [child] = full["children"] or []
        assert (child["path"], child["role"], child["owner"], [child["device"]],
                [child["dtype"]], child["shape"], child["bytes"]) == (
            row["name"], "tensor", "", row["devices"], row["dtypes"], row["shape"], row["bytes"])
    assert lone == {"plain", "scalar", "view", "nt", "q", "sparse", "empty"}


def test_a_first_frames_rows_built_from_the_columns_are_every_records_row(
        jagged: torch.Tensor) -> None:
    """A panel's first rows: a compact row's straight from the snapshot's columns, every other
    from its record, in namespace order, equal to ``row_to_wire`` of each record."""
    x = torch.zeros(3, 2)
    ns = {"x": x, "model": torch.nn.Linear(2, 2), "alias": x, "nt": jagged,
          "scalar": torch.tensor(2.5, dtype=torch.float64), "view": torch.arange(6.0)[1:],
          "big": torch.empty(2**20, 3, device="meta"), "q": torch.quantize_per_tensor(
              torch.ones(4), 0.1, 0, torch.qint8), "flags": torch.ones(5, dtype=torch.bool),
          "pair": [torch.ones(1)], "half": torch.ones(7, dtype=torch.bfloat16)}
    snap = take_snapshot(ns)
    assert {"x", "alias", "scalar", "big", "flags", "half"} <= set(snap._loose.names)
    got = rows_to_wire(snap)
    assert list(got.items()) == [(o.name, row_to_wire(o)) for o in snap.objects]
    assert got["big"]["bytes"] == 2**20 * 3 * 4 and got["q"]["dtypes"] == ["qint8"]
    assert list(got) == list(ns)


def test_a_request_whose_reply_cannot_be_sent_gets_an_error_reply() -> None:
    _, comm = opened({"x": torch.ones(1)}, RefusesSnapshots())
    comm.take()
    [reply] = comm.request("refresh", rid="r1")
    assert (reply["type"], reply["request_id"], reply["error"]) == ("error", "r1", "internal")
    assert "SymInt" in reply["detail"]
    json.dumps(reply)
