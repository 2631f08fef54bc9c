"""``%devices --fix`` is rehearsed on a forked copy of the namespace before anything moves: it
says ``verified`` or why not, and applies nothing a rehearsal shows would do harm.

Real IPython shell; ``meta`` is the second device.
"""

from __future__ import annotations

from typing import Any

import torch

from devicelens.guard import rehearsal


def _setup(ip: Any) -> None:
    # NB: a model left partly moved is an error whatever the cells did before (a loose tensor
    # is only warned about once a cell has used it, and the shell's history is shared by tests)
    ip.run_cell("import torch\nfrom torch import nn\n"
                "model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 3), nn.Linear(3, 2))\n"
                "model[1:].to('meta')\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n", store_history=False)


def test_fix_says_verified_then_applies(ip: Any, capsys: Any) -> None:
    _setup(ip)
    capsys.readouterr()
    report = ip.run_line_magic("devices", "--fix")
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == (
        "verified: rehearsed on a copy of this kernel's state first, the fixes do no harm and "
        "leave no finding they could fix")
    assert report.ok and {p.device.type for p in ip.user_ns["model"].parameters()} == {"meta"}


def test_no_rehearse_applies_without_a_verdict(ip: Any, capsys: Any) -> None:
    _setup(ip)
    capsys.readouterr()
    report = ip.run_line_magic("devices", "--fix --no-rehearse")
    assert "verified" not in capsys.readouterr().out
    assert report.ok and {p.device.type for p in ip.user_ns["model"].parameters()} == {"meta"}


def test_a_fix_that_would_do_harm_is_not_verified(ip: Any) -> None:
    _setup(ip)
    ns = ip.user_ns

    def unlink(copy: dict[str, Any]) -> None:
        # NB: what a wrong fix would do: copies in the optimizer, which then trains no weight
        group = copy["opt"].param_groups[0]
        group["params"] = [torch.nn.Parameter(torch.empty_like(p)) for p in group["params"]]

    verdict = rehearsal.rehearsed_apply(ns, unlink, lambda copy: [])
    assert verdict == ("not verified: the fixes would do harm: `opt` would no longer train "
                       "6 of its parameters")
    # NB: the copy changed, not the kernel
    placed = [p.device.type for p in ns["opt"].param_groups[0]["params"]]
    assert placed == ["cpu"] * 2 + ["meta"] * 4
    assert ns["opt"].param_groups[0]["params"][0] is ns["model"][0].weight
