"""Look-alike: normflows' `NormalizingFlow` trained by reverse KL on the GPU, with a trainable `DiagGaussian` base and a parameter-free target module.

Source: https://github.com/VincentStimper/normalizing-flows/blob/master/normflows/distributions/base.py
In normflows the base `DiagGaussian` holds `loc`/`log_scale` as parameters (or buffers when not
trainable) and samples `eps = torch.randn(..., dtype=self.loc.dtype, device=self.loc.device)`; the
target (`TwoModes` in the examples) holds no tensors and evaluates its log-density from the samples
themselves. After `model = model.to(device)` everything the reverse-KL loss touches is on the GPU,
although the target module has nothing to move. Stand-in: `DiagGaussian`, `TwoModes`, planar flows
and `NormalizingFlow.reverse_kld` as in normflows (the loss evaluated, no optimizer step).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DiagGaussian(nn.Module):
    def __init__(self, shape, trainable=True):
        super().__init__()
        self.shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.n_dim = len(self.shape)
        self.d = np.prod(self.shape)
        if trainable:
            self.loc = nn.Parameter(torch.zeros(1, *self.shape))
            self.log_scale = nn.Parameter(torch.zeros(1, *self.shape))
        else:
            self.register_buffer("loc", torch.zeros(1, *self.shape))
            self.register_buffer("log_scale", torch.zeros(1, *self.shape))
    def forward(self, num_samples=1):
        eps = torch.randn((num_samples,) + self.shape, dtype=self.loc.dtype, device=self.loc.device)
        z = self.loc + torch.exp(self.log_scale) * eps
        log_p = -0.5 * self.d * np.log(2 * np.pi) - torch.sum(self.log_scale + 0.5 * torch.pow(eps, 2), list(range(1, self.n_dim + 1)))
        return z, log_p

class TwoModes(nn.Module):
    def __init__(self, loc, scale):
        super().__init__()
        self.n_dims = 2
        self.loc = loc
        self.scale = scale
    def log_prob(self, z):
        a = torch.abs(z[:, 0])
        eps = torch.abs(torch.tensor(self.loc))
        log_prob = (-0.5 * ((torch.norm(z, dim=1) - self.loc) / (2 * self.scale)) ** 2
                    - 0.5 * ((a - eps) / (3 * self.scale)) ** 2
                    + torch.log(1 + torch.exp(-2 * (a * eps) / (3 * self.scale) ** 2)))
        return log_prob

class Planar(nn.Module):
    def __init__(self, shape):
        super().__init__()
        lim_w = np.sqrt(2.0 / np.prod(shape))
        self.u = nn.Parameter(torch.empty(shape).uniform_(-lim_w, lim_w))
        self.w = nn.Parameter(torch.empty(shape).uniform_(-lim_w, lim_w))
        self.b = nn.Parameter(torch.zeros(1))
    def forward(self, z):
        lin = torch.sum(self.w * z, list(range(1, self.w.dim())), keepdim=True) + self.b
        inner = torch.sum(self.w * self.u)
        u = self.u + (torch.log(1 + torch.exp(inner)) - 1 - inner) * self.w / torch.sum(self.w ** 2)
        z_ = z + u * torch.tanh(lin)
        log_det = torch.log(torch.abs(1 + torch.sum(self.w * u) * (1 - torch.tanh(lin.reshape(-1)) ** 2)))
        return z_, log_det

class NormalizingFlow(nn.Module):
    def __init__(self, q0, flows, p=None):
        super().__init__()
        self.q0 = q0
        self.flows = nn.ModuleList(flows)
        self.p = p
    def reverse_kld(self, num_samples=1, beta=1.0):
        z, log_q_ = self.q0(num_samples)
        log_q = torch.zeros_like(log_q_)
        log_q += log_q_
        for flow in self.flows:
            z, log_det = flow(z)
            log_q -= log_det
        log_p = self.p.log_prob(z)
        return torch.mean(log_q) - beta * torch.mean(log_p)

device = torch.device("cuda:0")
q0 = DiagGaussian(2)
flows = [Planar((2,)) for _ in range(4)]
target = TwoModes(2, 0.1)
model = NormalizingFlow(q0=q0, flows=flows, p=target)
model = model.to(device)
'''
CELL = '''
with torch.no_grad():
    loss = model.reverse_kld(num_samples=256)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
