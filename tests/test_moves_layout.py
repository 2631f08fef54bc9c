"""A move keeps each tensor's layout: a broadcast (``expand``) tensor keeps its one element of
storage, a transposed or strided one its strides, and the dry run counts storage bytes, not
``numel * itemsize`` (issue 38 item 8)."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot


def layout(t: torch.Tensor) -> tuple[Any, ...]:
    return (tuple(t.shape), t.stride(), t.untyped_storage().nbytes(), t.dtype)


def test_a_broadcast_tensor_moves_as_its_one_element() -> None:
    ns = {"b": torch.ones(1, 1).expand(50000, 50000)}
    dry = moves.move_all("meta", ns, dry_run=True)
    assert dry.ok and dry.bytes_by_device == {"meta": 4}
    assert [(m.path, m.nbytes) for m in dry.moved] == [("b", 4)]
    report = moves.move_all("meta", ns)
    assert report.ok and report.bytes_by_device == {"meta": 4}
    assert ns["b"].device.type == "meta"
    assert layout(ns["b"]) == ((50000, 50000), (0, 0), 4, torch.float32)


def test_strides_are_kept_and_the_bytes_are_what_the_storage_needs() -> None:
    base = torch.arange(40.0).reshape(4, 10)
    ns = {"t": torch.randn(3, 4).t(),                    # transposed: all 12 elements
          "cols": base[:, 2:8:2],                        # every other column of 3 rows
          "rows": torch.ones(2, 1, 5).expand(2, 3, 5),   # broadcast in the middle
          "window": torch.arange(10.0).as_strided((4, 3), (2, 1))}  # overlapping rows
    old = {k: (tuple(v.shape), v.stride()) for k, v in ns.items()}
    report = moves.move_all("meta", ns)
    assert report.ok
    assert {k: (tuple(v.shape), v.stride()) for k, v in ns.items()} == old
    # the span each one reaches in its storage: 12, 1 + 3*10 + 2*2 = 35, 10 and 1 + 3*2 + 2 = 9
    nbytes = {k: v.untyped_storage().nbytes() for k, v in ns.items()}
    assert nbytes == {"t": 48, "cols": 140, "rows": 40, "window": 36}
    assert {m.path: m.nbytes for m in report.moved} == nbytes
    assert report.bytes_by_device == {"meta": 48 + 140 + 40 + 36}


def test_a_cast_fix_keeps_a_broadcast_tensor_broadcast_with_its_values() -> None:
    model = nn.Linear(4, 2)
    row = torch.arange(4, dtype=torch.float64).reshape(1, 4)
    ns = {"model": model, "x": row.expand(1000, 4)}
    [fix] = [f for f in diagnose(take_snapshot(ns)) if f.action is not None]
    assert fix.action.dtype == "float32"
    dry = moves.apply_fix(fix, ns, dry_run=True)
    assert dry.ok and dry.bytes_by_device == {"cpu": 16}
    report = moves.apply_fix(fix, ns)
    assert report.ok and report.bytes_by_device == {"cpu": 16}
    x = ns["x"]
    assert layout(x) == ((1000, 4), (0, 1), 16, torch.float32)
    assert torch.equal(x, row.float().expand(1000, 4)) and model(x).shape == (1000, 2)


def test_a_broadcast_parameter_keeps_its_identity_and_its_layout() -> None:
    m = nn.Module()
    p = m.scale = nn.Parameter(torch.ones(1, 3).expand(5, 3))
    report = moves.move_all("meta", {"m": m})
    assert report.ok and m.scale is p and p.device.type == "meta"
    assert layout(p) == ((5, 3), (0, 1), 12, torch.float32)
    assert report.bytes_by_device == {"meta": 12}


def test_on_a_simulated_gpu_too(fake_cuda: Any) -> None:
    with fake_cuda, torch.no_grad():
        ns = {"b": torch.ones(1, 4, device="cuda:0").expand(64, 4),
              "t": torch.randn(4, 6, device="cuda:0").t()}
        report = moves.move_all("cuda:1", ns)
        assert report.ok and report.bytes_by_device == {"cuda:1": 16 + 96}
        assert str(ns["b"].device) == "cuda:1" and ns["b"].stride() == (0, 1)
        assert ns["t"].stride() == (1, 6) and ns["t"].untyped_storage().nbytes() == 96
