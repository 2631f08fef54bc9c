"""The post-mortem names an optimizer's state by the optimizer, not by a container that merely
shares its tensors (``optimizer.load_state_dict`` keeps a checkpoint's tensors when their device
and dtype already match)."""

from __future__ import annotations

import re
from typing import Any

import torch
from torch import nn

from .conftest import to_in_place

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_state_shared_with_a_loaded_checkpoint_is_named_by_the_optimizer(ip: Any,
                                                                           capsys: Any) -> None:
    trained = nn.Linear(4, 2)
    opt0 = torch.optim.AdamW(trained.parameters())
    trained(torch.randn(3, 4)).sum().backward()
    opt0.step()
    checkpoint = {"optimizer_state_dict": opt0.state_dict()}
    model = nn.Linear(4, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    shared = checkpoint["optimizer_state_dict"]["state"][0]["exp_avg"]
    assert optimizer.state[model.weight]["exp_avg"] is shared  # the premise of the bug
    to_in_place(model, "meta")
    for p in model.parameters():
        p.grad = torch.zeros_like(p)
    # NB: the checkpoint comes first in the namespace, as in the notebook that loads it
    ip.user_ns.update(checkpoint=checkpoint, model=model, optimizer=optimizer, torch=torch)
    capsys.readouterr()
    result = ip.run_cell("optimizer.step()", store_history=False)
    assert result.error_in_exec is not None
    out = ANSI.sub("", capsys.readouterr().out)
    text = out[out.index("devicelens: "):]
    culprits = [ln for ln in text.splitlines() if ln.strip().startswith("culprit:")]
    assert culprits and not [ln for ln in culprits if "checkpoint" in ln], culprits
    assert any("optimizer" in ln for ln in culprits)
