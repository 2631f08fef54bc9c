"""TorchScript modules (issue 38, item 7): ``torch.jit.script`` and ``torch.jit.trace`` keep their
tensors in a C++ module. They are shown with their parameters and buffers, and a move refuses
them by name (with the ``.to()`` that moves them) instead of leaving them behind with ok=True."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from devicelens import moves
from devicelens.inspect import take_snapshot
from devicelens.jupyter._protocol import row_to_wire


def scripted() -> dict[str, Any]:
    torch.manual_seed(0)
    with torch.no_grad():
        s = torch.jit.script(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)))
        t = torch.jit.trace(nn.Linear(2, 3), torch.ones(1, 2))
    return {"s": s, "t": t, "x": torch.ones(2)}


def test_scripted_and_traced_modules_show_their_tensors() -> None:
    ns = scripted()
    snap = take_snapshot(ns)
    assert [r.path for r in snap.tensors()] == [
        "s.0.weight", "s.0.bias", "s.1.weight", "s.1.bias", "s.1.running_mean",
        "s.1.running_var", "s.1.num_batches_tracked", "t.weight", "t.bias", "x"]
    # 6+3 + 3+3 + 3+3 floats and one int64 counter; 6+3 floats
    rows = {o.name: row_to_wire(o) for o in snap.objects}  # the panel's rows
    assert (rows["s"]["bytes"], rows["s"]["devices"]) == ((9 + 3 + 3 + 3 + 3) * 4 + 8, ["cpu"])
    assert (rows["t"]["bytes"], rows["t"]["devices"]) == (9 * 4, ["cpu"])


def test_a_move_refuses_them_by_name_and_moves_nothing() -> None:
    ns = scripted()
    weight = ns["s"][0].weight
    report = moves.move_all("meta", ns)
    assert (report.ok, report.moved) == (False, ())
    assert report.refused == (
        ("s", 'is a TorchScript module (torch.jit.script / trace): devicelens does not move its '
              'tensors; use its own .to(): s.to("meta")'),
        ("t", 'is a TorchScript module (torch.jit.script / trace): devicelens does not move its '
              'tensors; use its own .to(): t.to("meta")'))
    assert ns["s"][0].weight is weight and weight.device.type == "cpu"
    assert ns["x"].device.type == "cpu"
    named = moves.move_all("meta", ns, names=["x"])  # the rest, named, moves
    assert named.ok and ns["x"].device.type == "meta"
