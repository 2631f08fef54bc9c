"""After a move, an optimizer's step counters stay on the cpu (by design) while its row's devices
name only where its state went: the wire's ``counters`` tells the panel to draw both chips."""

from __future__ import annotations

from typing import Any

import torch

from devicelens import moves
from devicelens.inspect import take_snapshot
from devicelens.jupyter._protocol import object_to_wire, rows_to_wire


def _stepped() -> dict[str, Any]:
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.AdamW(model.parameters())
    model(torch.randn(1, 2)).sum().backward()
    opt.step()
    return {"model": model, "opt": opt}


def test_an_optimizer_moved_to_meta_keeps_its_step_counters_on_the_cpu() -> None:
    ns = _stepped()
    before = {o.name: object_to_wire(o) for o in take_snapshot(ns).objects}
    assert (before["opt"]["devices"], before["opt"]["counters"]) == (["cpu"], [])
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        assert moves.move_all("meta", ns).ok
    finally:
        torch.__future__.set_swap_module_params_on_conversion(False)
    snap = take_snapshot(ns)
    after = {o.name: object_to_wire(o, children=False) for o in snap.objects}
    assert (after["opt"]["devices"], after["opt"]["counters"]) == (["meta"], ["cpu"])
    assert after["model"]["counters"] == []
    assert rows_to_wire(snap)["opt"]["counters"] == ["cpu"]
