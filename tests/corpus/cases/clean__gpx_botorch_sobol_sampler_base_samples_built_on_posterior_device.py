"""Look-alike: a BoTorch `SobolQMCNormalSampler` created on the CPU draws base samples on the posterior's device.

Source: https://github.com/meta-pytorch/botorch/blob/main/botorch/sampling/normal.py
The BoTorch tutorials build `SobolQMCNormalSampler(sample_shape=torch.Size([128]))` with no
device next to a GP on cuda; `_construct_base_samples(posterior)` draws the quasi-random normals
with `device=posterior.device, dtype=posterior.dtype` (and `_update_base_samples` re-creates them
when the device changes), so the acquisition value is computed on the GPU without a mismatch.
Stand-in: the sampler's base-sample logic (randn in place of SobolEngine) and a Gaussian posterior.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class GaussianPosterior:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    @property
    def device(self):
        return self.mean.device

    @property
    def dtype(self):
        return self.mean.dtype

class SobolQMCNormalSampler(nn.Module):
    def __init__(self, sample_shape, seed=0):
        super().__init__()
        self.sample_shape, self.seed = sample_shape, seed
        self.register_buffer("base_samples", None)

    def _construct_base_samples(self, posterior):
        shape = self.sample_shape + posterior.mean.shape
        if self.base_samples is None or self.base_samples.shape != shape or self.base_samples.device != posterior.device:
            self.base_samples = torch.randn(shape, device=posterior.device, dtype=posterior.dtype)

    def forward(self, posterior):
        self._construct_base_samples(posterior)
        return posterior.mean + posterior.std * self.base_samples

def qExpectedImprovement(posterior, sampler, best_f):
    samples = sampler(posterior)
    return (samples - best_f).clamp_min(0).max(dim=-1).values.mean(dim=0)

tkwargs = {"dtype": torch.double, "device": torch.device("cuda:0")}
sampler = SobolQMCNormalSampler(sample_shape=torch.Size([128]))
posterior = GaussianPosterior(torch.rand(4, 3, **tkwargs), 0.1 + torch.rand(4, 3, **tkwargs))
best_f = torch.tensor(0.7, **tkwargs)
'''
CELL = '''
acq_values = qExpectedImprovement(posterior, sampler, best_f)
print(acq_values.device, sampler.base_samples.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
