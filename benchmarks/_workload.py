"""The namespaces every benchmark measures, the floor they are compared with, and the timer.

Floor: a bare loop that only reads ``.device/.dtype/.shape`` of every tensor a snapshot would
record (loose tensors, module parameters, optimizer state). Timer: CPU seconds of this process
(``time.process_time``), the best of interleaved runs (:func:`rounds`), so other processes on a
shared machine inflate neither side of a ratio; a ratio is read round by round
(:func:`paired_ratio`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from operator import truediv
from statistics import median
from typing import Any

import torch
from torch import nn


def namespace(n_loose: int = 10_000) -> dict[str, Any]:
    """The README's workload: N loose tensors + a 2k-parameter model + Adam state."""
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(2, 2) for _ in range(1000)])  # 2000 parameters
    opt = torch.optim.Adam(model.parameters())
    for p in model.parameters():
        p.grad = torch.zeros_like(p)
    opt.step()
    ns: dict[str, Any] = {f"t{i}": torch.zeros(2) for i in range(n_loose)}
    ns.update(model=model, opt=opt)
    return ns


def loose(n: int) -> dict[str, Any]:
    """``n`` loose tensors and nothing else: how the snapshot scales."""
    return {f"t{i}": torch.zeros(2) for i in range(n)}


def objects(n: int) -> dict[str, Any]:
    """``n`` objects for the panel: one in ten a small module (2 Linear layers), the rest
    tensors."""
    ns: dict[str, Any] = {}
    with torch.no_grad():
        for i in range(n):
            ns[f"obj{i}"] = (nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4)) if i % 10 == 0
                             else torch.zeros(4, 8))
    return ns


def zoo(n_models: int = 60, n_optimizers: int = 30) -> dict[str, Any]:
    """A notebook after a day of work: models of several kinds, half with an optimizer that has
    taken a step (so it holds state), about 2,300 parameters in all."""
    torch.manual_seed(0)
    makers: list[Callable[[], nn.Module]] = [
        lambda: nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)),
        lambda: nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(),
                              nn.Linear(4, 10)),
        lambda: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32), num_layers=3,
            enable_nested_tensor=False),
        lambda: nn.LSTM(8, 8, num_layers=2),
        lambda: nn.Sequential(*[nn.Linear(8, 8) for _ in range(64)]),
    ]
    ns: dict[str, Any] = {}
    for i in range(n_models):
        ns[f"model{i}"] = makers[i % len(makers)]()
    for i in range(n_optimizers):
        model = ns[f"model{i}"]
        opt = torch.optim.Adam(model.parameters())
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
        opt.step()
        ns[f"opt{i}"] = opt
    return ns


def bare_loop(ns: dict[str, Any]) -> int:
    """The floor: touch every tensor's device, dtype and shape, nothing else."""
    n = 0
    for v in ns.values():
        if isinstance(v, torch.Tensor):
            _ = v.device, v.dtype, v.shape
            n += 1
        elif isinstance(v, nn.Module):
            for p in v.parameters():
                _ = p.device, p.dtype, p.shape, p.grad
                n += 1
        elif isinstance(v, torch.optim.Optimizer):
            for s in v.state.values():
                for t in s.values():
                    _ = t.device, t.dtype, t.shape
                    n += 1
    return n


def cpu_time(fn: Callable[[], object]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def rounds(variants: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """Every CPU time of each variant, round by round: one run of each variant per round, so
    drift hits every variant alike."""
    times: dict[str, list[float]] = {k: [] for k in variants}
    for _ in range(repeat):
        for k, fn in variants.items():
            times[k].append(cpu_time(fn))
    return times


def paired_ratio(top: list[float], bottom: list[float]) -> float:
    """The median over rounds of ``top / bottom`` within a round. NB: the runs of one round
    are next to each other in time, so where a shared machine drifts between faster and
    slower spells both sides of a ratio see the same spell; the best of each side can come
    from different spells (one run of 100k tensors read 3.0x, another 1.5x)."""
    return float(median(map(truediv, top, bottom)))
