"""Look-alike: torchsde's latent SDE keeps its Ornstein-Uhlenbeck prior as registered buffers and builds its noise and the KL accumulator on the CPU, moved onto the posterior's tensors.

Source: https://github.com/google-research/torchsde/blob/master/examples/latent_sde.py
`LatentSDE` registers `theta`, `mu`, `sigma`, `py0_mean`, `py0_logvar` as buffers (they follow
`model.to(device)`), draws `eps = torch.randn(batch_size, 1).to(self.qy0_std)` and augments the state
with `torch.zeros(batch_size, 1).to(y0)` for the running KL term; `ts` is made on the device.
Stand-ins: `sdeint` as Euler-Maruyama with `torch.randn_like`; the time encoding expands `t` instead
of `torch.full_like(y, fill_value=t)`; the KL at t=0 written out instead of `distributions.kl_divergence`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def sdeint(sde, y0, ts, dt=1e-2):
    t_list = ts.unbind(0)
    ys, y = [y0], y0
    for t0, t1 in zip(t_list[:-1], t_list[1:]):
        h = t1 - t0
        y = y + sde.f(t0, y) * h + sde.g(t0, y) * torch.randn_like(y) * h.sqrt()
        ys.append(y)
    return torch.stack(ys)

def stable_division(a, b, epsilon=1e-7):
    b = torch.where(b.abs().detach() > epsilon, b, torch.full_like(b, fill_value=epsilon) * b.sign())
    return a / b

class LatentSDE(nn.Module):
    sde_type = "ito"
    noise_type = "diagonal"

    def __init__(self, theta=1.0, mu=0.0, sigma=0.5):
        super(LatentSDE, self).__init__()
        logvar = math.log(sigma ** 2 / (2. * theta))
        self.register_buffer("theta", torch.tensor([[theta]]))
        self.register_buffer("mu", torch.tensor([[mu]]))
        self.register_buffer("sigma", torch.tensor([[sigma]]))
        self.register_buffer("py0_mean", torch.tensor([[mu]]))
        self.register_buffer("py0_logvar", torch.tensor([[logvar]]))
        self.net = nn.Sequential(nn.Linear(3, 200), nn.Tanh(), nn.Linear(200, 200), nn.Tanh(), nn.Linear(200, 1))
        self.qy0_mean = nn.Parameter(torch.tensor([[mu]]), requires_grad=True)
        self.qy0_logvar = nn.Parameter(torch.tensor([[logvar]]), requires_grad=True)

    def f(self, t, y):
        t = t.expand_as(y)
        return self.net(torch.cat((torch.sin(t), torch.cos(t), y), dim=-1))

    def g(self, t, y):
        return self.sigma.repeat(y.size(0), 1)

    def h(self, t, y):
        return self.theta * (self.mu - y)

    def f_aug(self, t, y):
        y = y[:, 0:1]
        f, g, h = self.f(t, y), self.g(t, y), self.h(t, y)
        u = stable_division(f - h, g)
        f_logqp = .5 * (u ** 2).sum(dim=1, keepdim=True)
        return torch.cat([f, f_logqp], dim=1)

    def g_aug(self, t, y):
        y = y[:, 0:1]
        g = self.g(t, y)
        g_logqp = torch.zeros_like(y)
        return torch.cat([g, g_logqp], dim=1)

    @property
    def qy0_std(self):
        return torch.exp(.5 * self.qy0_logvar)

    @property
    def py0_std(self):
        return torch.exp(.5 * self.py0_logvar)

    def forward(self, ts, batch_size, eps=None):
        eps = torch.randn(batch_size, 1).to(self.qy0_std) if eps is None else eps
        y0 = self.qy0_mean + eps * self.qy0_std
        logqp0 = (torch.log(self.py0_std / self.qy0_std)
                  + (self.qy0_std ** 2 + (self.qy0_mean - self.py0_mean) ** 2) / (2 * self.py0_std ** 2)
                  - .5).sum(dim=1)
        aug_y0 = torch.cat([y0, torch.zeros(batch_size, 1).to(y0)], dim=1)
        aug = type("Aug", (), {"f": staticmethod(self.f_aug), "g": staticmethod(self.g_aug)})
        aug_ys = sdeint(aug, aug_y0, ts)
        ys, logqp_path = aug_ys[:, :, 0:1], aug_ys[-1, :, 1]
        logqp = (logqp0 + logqp_path).mean(dim=0)
        return ys, logqp

device = torch.device("cuda:0")
batch_size = 64
ts = torch.linspace(0, 2., steps=20, device=device)
model = LatentSDE().to(device)
'''
CELL = '''
zs, kl = model(ts=ts, batch_size=batch_size)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
