"""Aliases a move keeps or names (issue 38 item 9): views of a tensor that a fix casts or moves
follow it and stay its views; what cannot follow (a view of another dtype, a ``detach()``) is
named in a note; tensors held by plain objects' attributes (a ``TensorDataset``) are named as
not moved, never passed over in silence."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn
from torch.utils.data import TensorDataset

from devicelens import moves
from devicelens.analysis import Finding, diagnose
from devicelens.inspect import take_snapshot


def fix_for(ns: dict[str, Any], name: str) -> Finding:
    [f] = [f for f in diagnose(take_snapshot(ns)) if f.action is not None
           and f.objects == (name,)]
    return f


def storage(t: torch.Tensor) -> int:
    return t.untyped_storage()._cdata


def cast_namespace() -> dict[str, Any]:
    x = torch.arange(24, dtype=torch.float64).reshape(6, 4).clone()
    return {"model": nn.Linear(4, 2), "x": x, "rows": x[1:3], "col": x[:, 1]}


def test_views_follow_a_cast_of_their_base_and_stay_its_views() -> None:
    ns = cast_namespace()
    before = {k: ns[k].clone() for k in ("x", "rows", "col")}
    report = moves.apply_fix(fix_for(ns, "x"), ns)
    assert report.ok, report.error
    x, rows, col = ns["x"], ns["rows"], ns["col"]
    assert x.dtype == rows.dtype == col.dtype == torch.float32
    assert rows._base is x and col._base is x
    assert (rows.stride(), rows.storage_offset(), col.stride(), col.storage_offset()) == (
        (4, 1), 4, (4,), 1)
    for k in ("x", "rows", "col"):
        assert torch.equal(ns[k], before[k].float())
    x[1, 1] = -1.0  # one storage: a write through the base shows in both views
    assert rows[0, 1].item() == -1.0 and col[1].item() == -1.0
    assert report.bytes_by_device == {"cpu": 96} and report.notes == ()


def test_views_of_a_view_that_covers_its_storage_follow_it_too() -> None:
    flat = torch.arange(8, dtype=torch.float64)
    ns = {"model": nn.Linear(4, 2), "x": flat.view(2, 4), "row": flat[4:]}
    report = moves.apply_fix(fix_for(ns, "x"), ns)
    assert report.ok and ns["row"].dtype == torch.float32
    assert ns["row"]._base is ns["x"]._base  # views of one (rebuilt) base, as before
    assert torch.equal(ns["row"], torch.arange(4.0, 8.0))


def test_all_fixes_at_once_cast_the_storage_once() -> None:
    ns = cast_namespace()
    report = moves.apply_all_fixes(ns)
    assert report.ok, report.error
    assert ns["rows"]._base is ns["x"] and ns["col"]._base is ns["x"]
    assert report.bytes_by_device == {"cpu": 96}


def test_what_cannot_follow_is_named() -> None:
    ns = cast_namespace()
    x = ns["x"]
    ns["bits"] = x.view(torch.int64)  # a view of another dtype: a cast cannot keep it a view
    ns["det"] = x.detach()  # shares the storage without being a view
    report = moves.apply_fix(fix_for(ns, "x"), ns)
    assert report.ok and ns["rows"]._base is ns["x"]
    bits, det = ns["bits"], ns["det"]
    assert bits.dtype == torch.int64 and det.dtype == torch.float64  # both stayed as they were
    assert {storage(bits), storage(det)} == {storage(x)} != {storage(ns["x"])}
    assert report.notes == (
        "x was cast or moved without bits and det, which shared its storage: they stayed as "
        "they were and no longer share it.",)


def test_tensors_held_by_plain_objects_are_named_as_not_moved() -> None:
    class Holder:
        pass

    h = Holder()
    h.t = torch.ones(3)
    h.n = 4
    ds = TensorDataset(torch.ones(4, 2), torch.zeros(4))
    ns = {"h": h, "ds": ds, "model": nn.Linear(2, 2)}
    dry = moves.move_all("meta", ns, dry_run=True)
    report = moves.move_all("meta", ns)
    note = ("Not moved: h.t, ds.tensors[0] and ds.tensors[1], held by plain objects' "
            "attributes, which a move does not rebind; move them yourself, for example "
            'h.t = h.t.to("meta").')
    assert dry.notes == (note,) and report.notes == (note,)
    assert report.ok and next(ns["model"].parameters()).device.type == "meta"
    assert h.t.device.type == "cpu" and ds.tensors[0].device.type == "cpu"
