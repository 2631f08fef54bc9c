"""The namespace every benchmark measures: N loose tensors + a 2k-parameter model + Adam state."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


def namespace(n_loose: int = 10_000) -> dict[str, Any]:
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(2, 2) for _ in range(1000)])  # 2000 parameters
    opt = torch.optim.Adam(model.parameters())
    for p in model.parameters():
        p.grad = torch.zeros_like(p)
    opt.step()
    ns: dict[str, Any] = {f"t{i}": torch.zeros(2) for i in range(n_loose)}
    ns.update(model=model, opt=opt)
    return ns
