"""The move engine on real CUDA devices: cpu <-> cuda:0 round trips of one namespace with a real
training step after each move, cuda:0 -> cuda:1 where two GPUs exist, the free-memory check and a
real out-of-memory error (all or nothing), and dry runs that never initialise CUDA."""

from __future__ import annotations

import gc
import io
import subprocess
import sys
from collections import namedtuple
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import DEVICE_KINDS, diagnose
from devicelens.inspect import take_snapshot

Batch = namedtuple("Batch", "x y")
MiB = 1 << 20


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(16, 32)
        self.norm = nn.BatchNorm1d(32)
        self.out = nn.Linear(32, 4)
        self.scale = torch.full((32,), 0.5)  # a trap: a plain tensor attribute

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.norm(self.fc(x)).relu() * self.scale)


def namespace() -> dict[str, Any]:
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    batch = {"x": torch.randn(8, 16), "y": torch.randn(8, 4)}
    ns = {"model": model, "opt": opt, "batch": batch, "w": model.fc.weight, "x": batch["x"],
          "rows": batch["x"][2:], "pair": (batch["y"], "label"), "nt": Batch(batch["x"], 1)}
    step(ns)
    return ns


def step(ns: dict[str, Any]) -> float:
    model, opt, batch = ns["model"], ns["opt"], ns["batch"]
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(batch["x"]), batch["y"])
    loss.backward()
    opt.step()
    return float(loss)


def check_on(ns: dict[str, Any], device: str, ids: dict[str, int]) -> None:
    model, opt = ns["model"], ns["opt"]
    dev = torch.device(device)
    assert id(model.fc.weight) == ids["w"] and ns["w"] is model.fc.weight
    assert id(opt.state[model.fc.weight]) == ids["state"]
    assert all(p.device == dev and p.grad.device == dev for p in model.parameters())
    assert model.scale.device == dev and model.norm.running_mean.device == dev
    for s in opt.state.values():
        assert s["exp_avg"].device == dev and s["step"].device.type == "cpu"
    assert ns["x"] is ns["batch"]["x"] and ns["x"].device == dev
    assert ns["rows"]._base is ns["x"] and ns["rows"].data_ptr() == ns["x"][2:].data_ptr()
    assert ns["pair"][0] is ns["batch"]["y"] and ns["nt"].x is ns["x"]
    assert not [f for f in diagnose(take_snapshot(ns)) if f.kind in DEVICE_KINDS]


def values(ns: dict[str, Any]) -> dict[str, torch.Tensor]:
    model, opt = ns["model"], ns["opt"]
    out = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
    out |= {f"state.{i}.{k}": v.cpu().clone() for i, s in enumerate(opt.state.values())
            for k, v in s.items()}
    return out | {"x": ns["x"].cpu().clone(), "scale": model.scale.cpu().clone()}


def test_cpu_cuda_round_trip_keeps_values_and_trains_after_each_move() -> None:
    ns = namespace()
    ids = {"w": id(ns["w"]), "state": id(ns["opt"].state[ns["w"]])}
    before = values(ns)
    assert moves.move_all("cuda:0", ns).ok
    check_on(ns, "cuda:0", ids)
    assert moves.move_all("cpu", ns).ok
    check_on(ns, "cpu", ids)
    after = values(ns)
    assert before.keys() == after.keys()
    assert all(torch.equal(before[k], after[k]) for k in before)  # a round trip is lossless
    for device in ("cuda:0", "cpu", "cuda:0"):
        report = moves.move_all(device, ns)
        assert report.ok, report.error
        check_on(ns, device, ids)
        losses = [step(ns) for _ in range(3)]
        assert all(torch.isfinite(torch.tensor(losses))) and losses[-1] < losses[0]


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_cuda0_to_cuda1_and_training_there() -> None:
    ns = namespace()
    ids = {"w": id(ns["w"]), "state": id(ns["opt"].state[ns["w"]])}
    assert moves.move_all("cuda:0", ns).ok
    before = values(ns)
    assert moves.move_all("cuda:1", ns).ok
    check_on(ns, "cuda:1", ids)
    assert all(torch.equal(before[k], v) for k, v in values(ns).items())
    step(ns)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_dataparallel_follows_its_module_to_another_gpu() -> None:
    dp = nn.DataParallel(nn.Linear(4, 2).cuda(0), device_ids=[0, 1])
    assert moves.move_all("cuda:1", {"dp": dp}).ok
    assert dp.device_ids == [1, 0] and dp.output_device == 1
    assert dp(torch.randn(4, 4, device="cuda:1")).device == torch.device("cuda:1")


def fill_gpu(leave: int) -> torch.Tensor:
    torch.cuda.empty_cache()
    free, _total = torch.cuda.mem_get_info(0)
    return torch.empty(free - leave, dtype=torch.uint8, device="cuda:0")


def test_not_enough_memory_is_refused_before_anything_moves() -> None:
    ns = {"big": torch.ones(512 * MiB, dtype=torch.uint8), "small": torch.ones(3)}
    big, small = ns["big"], ns["small"]
    filler = fill_gpu(leave=256 * MiB)
    try:
        report = moves.move_all("cuda:0", ns)
    finally:
        del filler
        torch.cuda.empty_cache()
    assert not report.ok and report.error.startswith("not enough memory on cuda:0")
    assert 0 < report.missing_bytes <= 300 * MiB
    assert ns["big"] is big and ns["small"] is small and big.device.type == "cpu"


def test_a_real_out_of_memory_error_changes_nothing(monkeypatch: Any) -> None:
    from devicelens.moves import _report

    monkeypatch.setattr(_report, "memory_shortfall", lambda *a, **k: None)  # skip the pre-check
    ns = namespace()
    ns["big"] = torch.ones(768 * MiB, dtype=torch.uint8)
    w, x = ns["w"], ns["x"]
    filler = fill_gpu(leave=256 * MiB)
    gc.collect()  # NB: what earlier tests left is freed now, not during the move
    held = torch.cuda.memory_allocated(0)
    try:
        report = moves.move_all("cuda:0", ns)
        assert torch.cuda.memory_allocated(0) <= held  # the side table was released
    finally:
        del filler
        torch.cuda.empty_cache()
    assert not report.ok and report.error.startswith("out of memory on cuda:0 while moving")
    assert report.missing_bytes > 0
    assert ns["w"] is w and w.device.type == "cpu" and ns["x"] is x and x.device.type == "cpu"
    assert all(p.device.type == "cpu" for p in ns["model"].parameters())
    step(ns)


def test_a_dry_run_never_initialises_cuda() -> None:
    code = ("import torch; from devicelens import moves\n"
            "r = moves.move_all('cuda:0', {'x': torch.ones(4)}, dry_run=True)\n"
            "print(r.ok, r.bytes_by_device, torch.cuda.is_initialized())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.strip()
    assert out == "True {'cuda:0': 16} False"


def test_big_moves_draw_a_progress_bar() -> None:
    stream = io.StringIO()
    bar = moves.console_progress(stream=stream)
    ns = {"big": torch.empty(1100 * MiB, dtype=torch.uint8)}
    assert moves.move_all("cuda:0", ns, progress=bar).ok
    bar.close()
    assert stream.getvalue().endswith("] 1.1 GiB / 1.1 GiB\n")
    del ns
    torch.cuda.empty_cache()
