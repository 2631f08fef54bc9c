"""GPyTorch SpectralMixtureKernel.initialize_from_data on CUDA data: the min-distance buffer is made on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/737
"SpectralMixtureKernel initialize_from_data CUDA bug": with the kernel and `train_x`/`train_y` on
cuda, `kernel.initialize_from_data(train_x, train_y)` failed in
`self.raw_mixture_means.data.fill_(0.3).mul_(0.5).div_(min_dist)`, because
`min_dist = torch.zeros(1, self.ard_num_dims)` is created without the input's device. The fix
creates it with `dtype=train_x.dtype, device=train_x.device`. Stand-in: the kernel's parameters and
that method; for the fake-cuda simulation the random draws (`normal_()`, `uniform_()`) are fixed
`fill_` values and the per-dimension loop that writes the smallest non-zero gap into `min_dist`
(`min_dist[:, ind] = ...`, with `nonzero`) is one vectorised `min_dist + gaps.amin(...)`, so here the
CPU `min_dist` first meets the CUDA data one line earlier than in the report.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def inv_softplus(x):
    return x + torch.log(-torch.expm1(-x))

class SpectralMixtureKernel(nn.Module):
    """gpytorch.kernels.SpectralMixtureKernel, 0.3.x (parameters and initialize_from_data)."""
    def __init__(self, num_mixtures=4, ard_num_dims=1):
        super().__init__()
        self.num_mixtures = num_mixtures
        self.ard_num_dims = ard_num_dims
        self.raw_mixture_weights = nn.Parameter(torch.zeros(1, num_mixtures))
        self.raw_mixture_means = nn.Parameter(torch.zeros(1, num_mixtures, 1, ard_num_dims))
        self.raw_mixture_scales = nn.Parameter(torch.zeros(1, num_mixtures, 1, ard_num_dims))

    def initialize_from_data(self, train_x, train_y, **kwargs):
        if train_x.ndimension() == 1:
            train_x = train_x.unsqueeze(-1)
        if train_x.ndimension() == 2:
            train_x = train_x.unsqueeze(0)
        train_x_sort = train_x.sort(1)[0]
        max_dist = train_x_sort.select(1, -1) - train_x_sort.select(1, 0)
        min_dist_sort = (train_x_sort.narrow(1, 1, train_x.shape[1] - 1)
                         - train_x_sort.narrow(1, 0, train_x.shape[1] - 1)).squeeze(0)
        min_dist = torch.zeros(1, self.ard_num_dims)
        # per dimension, the smallest non-zero gap between sorted points
        gaps = torch.where(min_dist_sort > 0, min_dist_sort, torch.full_like(min_dist_sort, 1e10))
        min_dist = min_dist + gaps.amin(0, keepdim=True)
        # Inverse of lengthscales should be drawn from truncated Gaussian | N(0, max_dist^2) |
        self.raw_mixture_scales.data.fill_(0.8).mul_(max_dist).abs_().pow_(-1)
        self.raw_mixture_scales.data = inv_softplus(self.raw_mixture_scales.data)
        # Draw means from Unif(0, 0.5 / minimum distance between two points)
        self.raw_mixture_means.data.fill_(0.3).mul_(0.5).div_(min_dist)
        self.raw_mixture_means.data = inv_softplus(self.raw_mixture_means.data)
        # Mixture weights should be roughly the stdv of the y values divided by the number of mixtures
        self.raw_mixture_weights.data.fill_(1.0).mul_(train_y.std() / self.num_mixtures)
        self.raw_mixture_weights.data = inv_softplus(self.raw_mixture_weights.data)

train_x = torch.linspace(0, 1, 15).to("cuda:0")
train_y = torch.sin(train_x * 6.28)
kernel = SpectralMixtureKernel(num_mixtures=4).to("cuda:0")
'''
CELL = '''
kernel.initialize_from_data(train_x, train_y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["min_dist"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "min_dist = torch.zeros(1, self.ard_num_dims)",
    "min_dist = torch.zeros(1, self.ard_num_dims, dtype=train_x.dtype, device=train_x.device)",
)
CLEAN = False
