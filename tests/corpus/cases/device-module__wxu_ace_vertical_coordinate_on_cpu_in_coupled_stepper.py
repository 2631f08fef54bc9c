"""ACE coupled training: the stepper's `VerticalCoordinate` (ak/bk) stays on the CPU while the model runs on cuda:1.

Source: https://github.com/ai2cm/ace/issues/570
In coupled training the atmosphere stepper's corrector failed in `_force_conserve_dry_air` at
`new_pressure = (new_gen_dry_air + (ak_diff * wat).sum(-1)) / ...` with "Expected all tensors to be
on the same device, but found at least two devices, cuda:1 and cpu!": the hybrid sigma
`VerticalCoordinate` (a dataclass holding `ak`/`bk` tensors, not a Module) was built on the CPU and
never moved to the stepper's device. Fix: move the vertical coordinate `.to(device)`.
Stand-in: the dataclass, a reduced corrector and a stepper whose module lives on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import dataclasses
import torch
from torch import nn

@dataclasses.dataclass
class HybridSigmaPressureCoordinate:
    ak: torch.Tensor
    bk: torch.Tensor
    def to(self, device):
        return HybridSigmaPressureCoordinate(self.ak.to(device), self.bk.to(device))

def _force_conserve_dry_air(gen, ps_in, vc):
    wat = gen["specific_total_water"]
    ak_diff = vc.ak.diff()
    bk_diff = vc.bk.diff()
    new_gen_dry_air = ps_in - (ps_in.unsqueeze(-1) * bk_diff * wat).sum(-1)
    new_pressure = (new_gen_dry_air + (ak_diff * wat).sum(-1)) / (1 - (bk_diff * wat).sum(-1))
    return dict(gen, PRESsfc=new_pressure)

class Stepper:
    def __init__(self, module, vertical_coordinate):
        self.module = module
        self.vertical_coordinate = vertical_coordinate
    def step(self, x, ps):
        out = self.module(x)
        gen = {"specific_total_water": torch.sigmoid(out) * 1e-2}
        return _force_conserve_dry_air(gen, ps, self.vertical_coordinate)

n_levels = 8
vertical_coordinate = HybridSigmaPressureCoordinate(ak=torch.linspace(0, 100, n_levels + 1),
                                                    bk=torch.linspace(0, 1, n_levels + 1))
module = nn.Linear(n_levels, n_levels).to("cuda:1")
stepper = Stepper(module, vertical_coordinate)
x = torch.randn(2, 16, n_levels, device="cuda:1")
ps = torch.full((2, 16), 1.0e5, device="cuda:1")
'''
CELL = '''
state = stepper.step(x, ps)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["stepper.vertical_coordinate"]
FIX = "namespace"
REFERENCE_FIX = '''
stepper.vertical_coordinate = stepper.vertical_coordinate.to("cuda:1")
'''
REFERENCE_EDIT = None
CLEAN = False
