"""OpenMM-Torch force on CUDA: the minimizer hands the model CPU positions while its reference tensor lives on the GPU.

Source: https://github.com/openmm/NNPOps/pull/113
In the discussion of making OptimizedTorchANI robust to device changes between calls, the example is a
pure PyTorch `Model(scale, device)` wrapped in `TorchForce`: `self.r0 = pt.tensor([0.0, 0.0, 0.0],
device=device)` is built for the CUDA platform, but when `LocalEnergyMinimizer` detects large forces it
evaluates on the CPU and `forward` receives CPU `positions`; "positions=positions.to(self.device) #
<- without this line it will not work". Stand-in: the model as written there (`torch.zeros(3, ...)`
for the literal), called with the CPU positions the fallback passes; no OpenMM.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch as pt

class Model(pt.nn.Module):
    def __init__(self, scale, device):
        super().__init__()
        self.device = device
        self.scale = scale
        self.r0 = pt.zeros(3, device=device)           # pt.tensor([0.0, 0.0, 0.0], device=device)

    def forward(self, positions):
        return self.scale * pt.sum(positions - self.r0)**2

scale = 1.0e10
device = "cuda:0"
model = Model(scale, device)                         # pt.jit.script(Model(scale, device)) -> TorchForce

# context.setPositions([[0, 0, 0], [1, 0, 0]]); LocalEnergyMinimizer falls back to the CPU path
positions = pt.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
'''
CELL = '''
with pt.no_grad():
    energy = model(positions)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["positions"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return self.scale * pt.sum(positions - self.r0)**2",
    "        positions = positions.to(self.device)\n        return self.scale * pt.sum(positions - self.r0)**2",
)
CLEAN = False
