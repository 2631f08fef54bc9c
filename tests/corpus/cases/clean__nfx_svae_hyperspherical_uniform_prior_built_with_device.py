"""s-vae-pytorch: the hyperspherical VAE's prior `HypersphericalUniform(z_dim - 1, device=device)` is a plain distribution object, built on the model's device, whose constants are made on CPU and moved.

Source: https://github.com/nicola-decao/s-vae-pytorch/blob/master/hyperspherical_vae/distributions/hyperspherical_uniform.py
Since the GPU fixes (PR #4, PR #10) `HypersphericalUniform` takes a `device` argument: `sample` draws
`Normal(0, 1).sample(...)` on the CPU and moves it with `.to(self.device)`, `log_prob` builds
`torch.ones(x.shape[:-1], device=self.device)`, and the log surface area uses
`torch.lgamma(torch.tensor([(dim + 1) / 2]).to(self.device))`. With the examples' vMF VAE on cuda,
the prior is not an `nn.Module` (so `model.to()` never sees it) and it creates CPU tensors on every
call, yet everything it returns is on the VAE's device: looks like the stray-prior bug, is right.
Stand-in: the distribution verbatim (argument validation off); the vMF posterior sample replaced by
normalised encoder outputs on cuda.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class HypersphericalUniform(torch.distributions.Distribution):

    support = torch.distributions.constraints.real
    has_rsample = False
    _mean_carrier_measure = 0

    @property
    def dim(self):
        return self._dim

    @property
    def device(self):
        return self._device

    @device.setter
    def device(self, val):
        self._device = val if isinstance(val, torch.device) else torch.device(val)

    def __init__(self, dim, validate_args=None, device="cpu"):
        super(HypersphericalUniform, self).__init__(
            torch.Size([dim]), validate_args=False
        )
        self._dim = dim
        self.device = device

    def sample(self, shape=torch.Size()):
        output = (
            torch.distributions.Normal(0, 1, validate_args=False)
            .sample(
                (shape if isinstance(shape, torch.Size) else torch.Size([shape]))
                + torch.Size([self._dim + 1])
            )
            .to(self.device)
        )

        return output / output.norm(dim=-1, keepdim=True)

    def entropy(self):
        return self.__log_surface_area()

    def log_prob(self, x):
        return -torch.ones(x.shape[:-1], device=self.device) * self.__log_surface_area()

    def __log_surface_area(self):
        lgamma = torch.lgamma(torch.tensor([(self._dim + 1) / 2]).to(self.device))
        return math.log(2) + ((self._dim + 1) / 2) * math.log(math.pi) - lgamma

device = torch.device("cuda:0")
z_dim = 10
encoder = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, z_dim)).to(device)
x_mb = (torch.rand(64, 784) > 0.5).float().to(device)
p_z = HypersphericalUniform(z_dim - 1, device=device)
'''
CELL = '''
z_mean = encoder(x_mb)
z = z_mean / z_mean.norm(dim=-1, keepdim=True)
log_p_z = p_z.log_prob(z)
prior_samples = p_z.sample(16)
entropy = p_z.entropy()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
