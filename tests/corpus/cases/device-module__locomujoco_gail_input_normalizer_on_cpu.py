"""GAIL discriminator on cuda: its input normalization statistics are plain tensors left on the CPU.

Source: https://github.com/robfiras/loco-mujoco/issues/5
Running the imitation-learning example with `USE_CUDA=True` failed in
`imitation_lib/utils/networks.py` at `return (inputs - mean) / std` with "found at least two
devices, cuda:0 and cpu!": the network was moved to the GPU, but the running mean/std it
normalizes its inputs with are tensors it holds outside the module's parameters and buffers.
Stand-in: a discriminator whose normalizer keeps `mean`/`std` as plain attributes.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class RunningStandardization:
    """Running mean/std of the expert observations (not an nn.Module)."""
    def __init__(self, shape):
        self.mean = torch.zeros(shape)
        self.std = torch.ones(shape)

    def update(self, x):
        self.mean = torch.as_tensor(x.mean(0), dtype=torch.float32)
        self.std = torch.as_tensor(x.std(0) + 1e-8, dtype=torch.float32)

class DiscriminatorNetwork(nn.Module):
    def __init__(self, input_dim, n_features=64):
        super().__init__()
        self.normalizer = RunningStandardization(input_dim)
        self.net = nn.Sequential(nn.Linear(input_dim, n_features), nn.Tanh(), nn.Linear(n_features, 1))

    def forward(self, inputs):
        mean, std = self.normalizer.mean, self.normalizer.std
        return self.net((inputs - mean) / std)

device = torch.device("cuda:0")
expert_obs = np.random.randn(1000, 23).astype(np.float32)
discriminator = DiscriminatorNetwork(23)
discriminator.normalizer.update(expert_obs)
discriminator.to(device)
obs = torch.randn(256, 23).to(device)
'''
CELL = '''
d_out = discriminator(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["discriminator.normalizer.mean"]
FIX = "namespace"
REFERENCE_FIX = '''
discriminator.normalizer.mean = discriminator.normalizer.mean.to(device)
discriminator.normalizer.std = discriminator.normalizer.std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
