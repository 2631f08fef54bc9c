"""Look-alike: TorchMD-Net `ExpNormalSmearing(trainable=False)` builds its means/betas on the CPU as buffers; `.to(device)` carries them, and `alpha`/cutoffs are Python floats.

Source: https://github.com/torchmd/torchmd-net/blob/main/torchmdnet/models/utils.py
`_initial_params` makes `means`/`betas` with `torch.scalar_tensor`/`torch.linspace`/`torch.tensor` (CPU),
registered as buffers when not trainable; `forward` mixes them with CUDA distances, a float `alpha`,
and `CosineCutoff` multiplies by the boolean `(distances < self.cutoff_upper)`. Everything on the
accelerator after `rbf.to(device)` (meta stands for the GPU here), so there is nothing to report. The distance computation is a reduced
stand-in for the model's neighbour list (`OptimizedDistance`).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn, Tensor

class CosineCutoff(nn.Module):
    def __init__(self, cutoff_lower=0.0, cutoff_upper=5.0):
        super(CosineCutoff, self).__init__()
        self.cutoff_lower = cutoff_lower
        self.cutoff_upper = cutoff_upper

    def forward(self, distances: Tensor) -> Tensor:
        if self.cutoff_lower > 0:
            cutoffs = 0.5 * (torch.cos(math.pi * (2 * (distances - self.cutoff_lower)
                              / (self.cutoff_upper - self.cutoff_lower) + 1.0)) + 1.0)
            cutoffs = cutoffs * (distances < self.cutoff_upper)
            cutoffs = cutoffs * (distances > self.cutoff_lower)
            return cutoffs
        else:
            cutoffs = 0.5 * (torch.cos(distances * math.pi / self.cutoff_upper) + 1.0)
            cutoffs = cutoffs * (distances < self.cutoff_upper)
            return cutoffs

class ExpNormalSmearing(nn.Module):
    def __init__(self, cutoff_lower=0.0, cutoff_upper=5.0, num_rbf=50, trainable=True,
                 dtype=torch.float32):
        super(ExpNormalSmearing, self).__init__()
        self.cutoff_lower = cutoff_lower
        self.cutoff_upper = cutoff_upper
        self.num_rbf = num_rbf
        self.trainable = trainable
        self.dtype = dtype
        self.cutoff_fn = CosineCutoff(0, cutoff_upper)
        self.alpha = 5.0 / (cutoff_upper - cutoff_lower)

        means, betas = self._initial_params()
        if trainable:
            self.register_parameter("means", nn.Parameter(means))
            self.register_parameter("betas", nn.Parameter(betas))
        else:
            self.register_buffer("means", means)
            self.register_buffer("betas", betas)

    def _initial_params(self):
        start_value = torch.exp(
            torch.scalar_tensor(-self.cutoff_upper + self.cutoff_lower, dtype=self.dtype)
        )
        means = torch.linspace(start_value, 1, self.num_rbf, dtype=self.dtype)
        betas = torch.tensor(
            [(2 / self.num_rbf * (1 - start_value)) ** -2] * self.num_rbf, dtype=self.dtype
        )
        return means, betas

    def forward(self, dist):
        dist = dist.unsqueeze(-1)
        return self.cutoff_fn(dist) * torch.exp(
            -self.betas * (torch.exp(self.alpha * (-dist + self.cutoff_lower)) - self.means) ** 2
        )

device = torch.device("meta")   # the accelerator in this simulation
rbf = ExpNormalSmearing(0.0, 5.0, 32, trainable=False).to(device)
pos = torch.randn(12, 3, device=device) * 2.0
edge_index = torch.stack([torch.arange(12, device=device).repeat_interleave(11),
                          torch.randint(0, 12, (132,), device=device)])
'''
CELL = '''
edge_weight = (pos[edge_index[0]] - pos[edge_index[1]]).norm(dim=-1)
edge_attr = rbf(edge_weight)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
