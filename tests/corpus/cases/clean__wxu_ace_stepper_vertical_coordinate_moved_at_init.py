"""ACE inference with the vertical coordinate deserialised from the stepper: a CPU `ak`/`bk` dataclass moved to the device when the stepper is built.

Source: https://github.com/ai2cm/ace/issues/439
The issue moved the source of the hybrid sigma vertical coordinate from the forcing dataset to the
one serialised with the stepper. The stepper loads `ak`/`bk` from its (CPU) state and moves the
coordinate to `fme.get_device()` in its constructor, so the corrector's dry-air conservation mixes
only GPU tensors, while the original CPU coordinate object still sits in the namespace. Look-alike:
a CPU dataclass of tensors next to a GPU stepper, whose GPU copy is what is used. Stand-in: the
dataclass, a reduced corrector and stepper.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import dataclasses
import torch
from torch import nn

def get_device():
    return torch.device("cuda:0")

@dataclasses.dataclass
class HybridSigmaPressureCoordinate:
    ak: torch.Tensor
    bk: torch.Tensor
    def to(self, device):
        return HybridSigmaPressureCoordinate(self.ak.to(device), self.bk.to(device))
    @classmethod
    def from_state(cls, state):
        return cls(torch.as_tensor(state["ak"]), torch.as_tensor(state["bk"]))

def force_conserve_dry_air(wat, ps, vc):
    ak_diff, bk_diff = vc.ak.diff(), vc.bk.diff()
    dry = ps - (ps.unsqueeze(-1) * bk_diff * wat).sum(-1)
    return (dry + (ak_diff * wat).sum(-1)) / (1 - (bk_diff * wat).sum(-1))

class SingleModuleStepper:
    def __init__(self, module, vertical_coordinate):
        self.module = module.to(get_device())
        self.vertical_coordinate = vertical_coordinate.to(get_device())
    def step(self, x, ps):
        wat = torch.sigmoid(self.module(x)) * 1e-2
        return force_conserve_dry_air(wat, ps, self.vertical_coordinate)

n = 8
serialized = {"ak": [float(i) * 10 for i in range(n + 1)], "bk": [i / n for i in range(n + 1)]}
vertical_coordinate = HybridSigmaPressureCoordinate.from_state(serialized)
stepper = SingleModuleStepper(nn.Linear(n, n), vertical_coordinate)
x = torch.randn(2, 16, n, device=get_device())
ps = torch.full((2, 16), 1.0e5, device=get_device())
'''
CELL = '''
with torch.no_grad():
    new_ps = stepper.step(x, ps)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
