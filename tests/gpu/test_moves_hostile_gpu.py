"""Issue 12 on a real GPU: body-compatible moves (``.data =``, no swap) keep hooks, RNN flat
weights are packed for cuDNN again, frozen weights held by a graph move, and device indices are
checked against the real device count."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.moves import _swap


def test_cpu_and_cuda_bodies_are_interchangeable_as_predicted() -> None:
    t, c = torch.ones(2), torch.ones(2, device="cuda:0")
    assert torch._has_compatible_shallow_copy_type(t, c)
    assert not _swap.predicts_swap(torch, t, torch.device("cuda:0"))


def test_hooks_fire_after_cpu_cuda_round_trips() -> None:
    m = nn.Linear(4, 2)
    fired: list[str] = []
    m.weight.register_hook(lambda g: fired.append(g.device.type))
    m.weight.register_post_accumulate_grad_hook(lambda p: fired.append("post"))
    for dev in ("cuda:0", "cpu", "cuda:0"):
        assert moves.move_all(dev, {"m": m}).ok
        fired.clear()
        m(torch.ones(1, 4, device=dev)).sum().backward()
        assert fired == [torch.device(dev).type, "post"]


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU])
def test_rnn_to_cuda_and_back_runs_and_keeps_its_flat_weights(cls: type) -> None:
    m = cls(8, 16, num_layers=2)
    params = list(m.parameters())
    x = torch.randn(5, 3, 8)
    expected = m(x)[0].detach()
    assert moves.move_all("cuda:0", {"m": m}).ok
    assert list(m.parameters()) == params and [r() for r in m._flat_weight_refs] == params
    got = m(x.cuda())[0].detach().cpu()
    torch.testing.assert_close(got, expected, atol=1e-3, rtol=1e-2)  # NB: cuDNN may use TF32
    assert moves.move_all("cpu", {"m": m}).ok
    torch.testing.assert_close(m(x)[0].detach(), expected)


def test_frozen_weights_in_a_graph_move_to_cuda() -> None:
    base, lora = nn.Linear(4, 4), nn.Linear(4, 4)
    base.requires_grad_(False)
    out = base(lora(torch.randn(2, 4))).sum()
    w = base.weight
    assert moves.move_all("cuda:0", {"base": base, "out": out}, names=["base"]).ok
    assert base.weight is w and w.device.type == "cuda"
    out.backward()
    assert lora.weight.grad is not None


def test_indices_past_the_device_count_are_reports() -> None:
    n = torch.cuda.device_count()
    report = moves.move_all(f"cuda:{n}", {"x": torch.ones(1)})
    assert not report.ok and f"this machine has {n} CUDA device" in report.error
    wrapped = moves.move_all(f"cuda:{256 + n - 1}", {"x": torch.ones(1)})
    assert not wrapped.ok and "up to 127" in wrapped.error
