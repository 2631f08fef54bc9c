"""The panel's bridge on a real CUDA device: move all there, free memory listed, bad indices."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from .._comm_fake import FakeComm

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]


def test_move_all_to_cuda_then_free_memory_is_listed() -> None:
    model = nn.Sequential(nn.Linear(64, 64), nn.Linear(64, 8))
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, 64)).sum().backward()
    opt.step()
    weight = model[0].weight
    ns = {"model": model, "opt": opt, "batch": torch.randn(4, 64)}
    comm = FakeComm()
    Bridge(comm, lambda: ns).open({"protocol": PROTOCOL_VERSION})
    comm.take()
    *progress, reply, push = comm.request("move_all", {"device": "cuda:0"}, rid="g")
    assert reply["result"]["report"]["ok"] and progress[-1]["done"] == progress[-1]["total"]
    assert {o["name"]: o["devices"] for o in push["snapshot"]["objects"]} == {
        "model": ["cuda:0"], "opt": ["cuda:0"], "batch": ["cuda:0"]}
    assert model[0].weight is weight and weight.device == torch.device("cuda", 0)
    assert all(t.device.type == "cuda" for s in opt.state.values() for k, t in s.items()
               if torch.is_tensor(t) and k != "step")
    [reply] = comm.request("list_devices")
    cuda0 = next(d for d in reply["result"]["devices"] if d["name"] == "cuda:0")
    assert cuda0["kind"] == "cuda" and 0 < cuda0["free_bytes"] <= cuda0["total_bytes"]


def test_a_missing_cuda_index_is_a_bad_device() -> None:
    ns = {"x": torch.ones(2)}
    comm = FakeComm()
    Bridge(comm, lambda: ns).open({"protocol": PROTOCOL_VERSION})
    n = torch.cuda.device_count()
    [reply] = comm.request("move_all", {"device": f"cuda:{n}"})
    assert (reply["error"], ns["x"].device.type) == ("bad_device", "cpu")
    assert f"this machine has {n} CUDA" in reply["detail"]
