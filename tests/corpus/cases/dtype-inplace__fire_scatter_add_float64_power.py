"""FIRE optimiser step: a float32 per-system accumulator scatter_add_'ed with float64 atomic powers.

Source: https://github.com/TorchSim/torch-sim/pull/27
"`scatter()`: Expected `self.dtype` to be equal to `src.dtype`" at
`atomic_power_per_batch.scatter_add_` in fire_step: the simulation state was float64, the
accumulator was made with torch.zeros(...) in the default float32. Stand-in: the power reduction of
one FIRE step.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

def fire_step(forces, velocities, batch, n_batches):
    atomic_power = (forces * velocities).sum(dim=1)
    atomic_power_per_batch = torch.zeros(n_batches)
    atomic_power_per_batch.scatter_add_(0, batch, atomic_power)
    return atomic_power_per_batch > 0

dtype = torch.float64
forces = torch.randn(10, 3, dtype=dtype)
velocities = torch.randn(10, 3, dtype=dtype)
batch = torch.tensor([0] * 6 + [1] * 4)
'''
CELL = '''
uphill = fire_step(forces, velocities, batch, n_batches=2)
'''
EXPECT_ERROR = "Expected self.dtype to be equal to src.dtype"
CULPRITS = ["fire_step"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(n_batches)",
    "torch.zeros(n_batches, dtype=atomic_power.dtype)",
)
CLEAN = False
