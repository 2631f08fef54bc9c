"""s-vae-pytorch `VonMisesFisher.__sample_w_rej` clamps with `torch.Tensor([0.])` / `torch.Tensor([1.])` made on the CPU; `loc`/`scale` are cuda tensors.

Source: https://github.com/nicola-decao/s-vae-pytorch/pull/4
"Returning samples on GPU with VonMisesFisher and HypersphericalUniform distributions": "The
VonMisesFisher distribution throws an error in `_sample_w_rej()` (line 66) when `scale` and
`location` are provided as Cuda tensors. This is solved by adding the `device` argument to tensor
creation." Line 66 is `s = torch.min(torch.max(torch.Tensor([0.]), self.scale - 10),
torch.Tensor([1.]))`; the merged fix writes `torch.tensor([0.], device=self.device)` and
`torch.tensor([1.], device=self.device)`.
Stand-in: the repository's `ModelVAE` (vmf) and `VonMisesFisher` of the time; the rejection
sampler's `while bool_mask.sum() != 0` loop reduced to one proposal round (accepted draws kept), the
`ive`-based entropy/mean left out; `v` drawn directly with `m - 1` columns instead of slicing off
the first; argument validation off; an MNIST batch replaced by random binary pixels on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class VonMisesFisher(torch.distributions.Distribution):

    arg_constraints = {'loc': torch.distributions.constraints.real,
                       'scale': torch.distributions.constraints.positive}
    support = torch.distributions.constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc, scale, validate_args=None):
        self.dtype = loc.dtype
        self.loc = loc
        self.scale = scale
        self.device = loc.device
        self.__m = loc.shape[-1]
        self.__e1 = (torch.Tensor([1.] + [0] * (loc.shape[-1] - 1))).to(self.device)

        super(VonMisesFisher, self).__init__(self.loc.size(), validate_args=False)

    def sample(self, shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(shape)

    def rsample(self, shape=torch.Size()):
        shape = shape if isinstance(shape, torch.Size) else torch.Size([shape])

        w = self.__sample_w3(shape=shape) if self.__m == 3 else self.__sample_w_rej(shape=shape)

        v = torch.distributions.Normal(0, 1, validate_args=False).sample(
            shape + torch.Size(self.loc.shape[:-1]) + torch.Size([self.__m - 1])).to(self.device)
        v = v / v.norm(dim=-1, keepdim=True)

        x = torch.cat((w, torch.sqrt(1 - (w ** 2)) * v), -1)
        z = self.__householder_rotation(x)

        return z.type(self.dtype)

    def __sample_w3(self, shape):
        shape = shape + torch.Size(self.scale.shape)
        u = torch.distributions.Uniform(0, 1, validate_args=False).sample(shape).to(self.device)
        self.__w = 1 + torch.stack([torch.log(u), torch.log(1 - u) - 2 * self.scale], dim=0).logsumexp(0) / self.scale
        return self.__w

    def __sample_w_rej(self, shape):
        c = torch.sqrt((4 * (self.scale ** 2)) + (self.__m - 1) ** 2)
        b_true = (-2 * self.scale + c) / (self.__m - 1)

        # using Taylor approximation with a smooth swift from 10 < scale < 11
        # to avoid numerical errors for large scale
        b_app = (self.__m - 1) / (4 * self.scale)
        s = torch.min(torch.max(torch.Tensor([0.]), self.scale - 10), torch.Tensor([1.]))
        b = b_app * s + b_true * (1 - s)

        a = (self.__m - 1 + 2 * self.scale + c) / 4
        d = (4 * a * b) / (1 + b) - (self.__m - 1) * math.log(self.__m - 1)

        self.__b, (self.__e, self.__w) = b, self.__while_loop(b, a, d, shape)
        return self.__w

    def __while_loop(self, b, a, d, shape):
        # stand-in: one proposal round; the library repeats it until every draw is accepted
        b, a, d = [e.repeat(*shape, *([1] * len(self.scale.shape))) for e in (b, a, d)]
        shape = shape + torch.Size(self.scale.shape)

        e_ = torch.distributions.Beta((self.__m - 1) / 2, (self.__m - 1) / 2, validate_args=False).sample(shape[:-1]).reshape(shape).to(self.device)
        u = torch.distributions.Uniform(0, 1, validate_args=False).sample(shape).to(self.device)

        w_ = (1 - (1 + b) * e_) / (1 - (1 - b) * e_)
        t = (2 * a * b) / (1 - (1 - b) * e_)

        accept = ((self.__m - 1) * t.log() - t + d) > torch.log(u)
        w = torch.where(accept, w_, torch.zeros_like(w_))
        e = torch.where(accept, e_, torch.zeros_like(e_))
        return e, w

    def __householder_rotation(self, x):
        u = (self.__e1 - self.loc)
        u = u / (u.norm(dim=-1, keepdim=True) + 1e-5)
        z = x - 2 * (x * u).sum(-1, keepdim=True) * u
        return z

class ModelVAE(torch.nn.Module):

    def __init__(self, h_dim, z_dim, activation=F.relu, distribution='normal'):
        super(ModelVAE, self).__init__()
        self.z_dim, self.activation, self.distribution = z_dim, activation, distribution
        self.fc_e0 = nn.Linear(784, h_dim * 2)
        self.fc_e1 = nn.Linear(h_dim * 2, h_dim)
        self.fc_mean = nn.Linear(h_dim, z_dim)
        self.fc_var = nn.Linear(h_dim, 1)
        self.fc_d0 = nn.Linear(z_dim, h_dim)
        self.fc_d1 = nn.Linear(h_dim, h_dim * 2)
        self.fc_logits = nn.Linear(h_dim * 2, 784)

    def encode(self, x):
        x = self.activation(self.fc_e0(x))
        x = self.activation(self.fc_e1(x))
        z_mean = self.fc_mean(x)
        z_mean = z_mean / z_mean.norm(dim=-1, keepdim=True)
        # the `+ 1` prevent collapsing behaviors
        z_var = F.softplus(self.fc_var(x)) + 1
        return z_mean, z_var

    def decode(self, z):
        x = self.activation(self.fc_d0(z))
        x = self.activation(self.fc_d1(x))
        return self.fc_logits(x)

    def reparameterize(self, z_mean, z_var):
        q_z = VonMisesFisher(z_mean, z_var)
        return q_z

device = torch.device("cuda:0")
model = ModelVAE(h_dim=128, z_dim=10, distribution='vmf').to(device)
x_mb = (torch.rand(64, 784) > 0.5).float().to(device)
z_mean, z_var = model.encode(x_mb)
q_z = model.reparameterize(z_mean, z_var)
'''
CELL = '''
z = q_z.rsample()
x_mb_ = model.decode(z)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["q_z"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("s = torch.min(torch.max(torch.Tensor([0.]), self.scale - 10), torch.Tensor([1.]))",
                  "s = torch.min(torch.max(torch.tensor([0.], device=self.device), self.scale - 10), torch.tensor([1.], device=self.device))")
CLEAN = False
