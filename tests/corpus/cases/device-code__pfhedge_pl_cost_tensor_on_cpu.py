"""pfhedge's profit-and-loss function builds the transaction-cost tensor on the CPU.

Source: https://github.com/pfnet-research/pfhedge/issues/589
"gpu bug in functional.py": line 506, `c = torch.tensor(cost).unsqueeze(0).unsqueeze(-1)` is
created without the device of the input tensors, so the example notebook fails on the GPU.
Stand-in: `pfhedge.nn.functional.pl` with the cost terms; creating `c` on `spot.device` is my
choice of fix (the issue was merged into #567). SIM meta stands for cpu vs cuda:0.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch

def pl(spot, unit, cost=None, payoff=None, deduct_first_cost=True):
    """pfhedge.nn.functional.pl (stand-in)."""
    output = unit[..., :-1].mul(spot.diff(dim=-1)).sum(dim=(-2, -1))
    if payoff is not None:
        output -= payoff
    if cost is not None:
        c = torch.tensor(cost).unsqueeze(0).unsqueeze(-1)
        output -= (spot[..., 1:] * unit.diff(dim=-1).abs() * c).sum(dim=(-2, -1))
        if deduct_first_cost:
            output -= (spot[..., [0]] * unit[..., [0]].abs() * c).sum(dim=(-2, -1))
    return output

device = torch.device("meta")   # the GPU (SIM meta)
n_paths, n_instruments, n_steps = 100, 2, 20
spot = (1.0 + 0.01 * torch.randn(n_paths, n_instruments, n_steps).cumsum(-1)).to(device)
unit = torch.rand(n_paths, n_instruments, n_steps).to(device)
'''
CELL = '''
hedge_pl = pl(spot, unit, cost=[1e-3, 2e-3])
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["c"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(cost)", "torch.tensor(cost, device=spot.device)")
CLEAN = False
