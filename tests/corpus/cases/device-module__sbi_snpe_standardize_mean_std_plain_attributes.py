"""sbi SNPE with `device="cuda"`: the z-scoring `Standardize` module keeps `mean`/`std` as plain attributes, so `.to(device)` leaves them on the CPU.

Source: https://github.com/sbi-dev/sbi/issues/251
"device=`cuda` results in RuntimeError": calling SNPE-C with default settings but `device="cuda"`
failed in `sbi/utils/sbiutils.py` `Standardize.forward`, `return (tensor - self.mean) / self.std`,
with "expected device cuda:0 but got device cpu". `standardizing_net(batch_x)` builds
`Standardize(t_mean, t_std)` from the CPU training data and stores both as plain tensor attributes,
which `Module.to()` never moves (sbi later registers them as buffers). Stand-in: the SNPE
`append_simulations`/`train` flow reduced to one epoch, a conditional affine flow in place of the MAF
(nflows' `Flow` with the embedding net `nn.Sequential(standardizing_net(x), embedding_net)`), the
invalid-simulation filter left out; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn

class Standardize(nn.Module):
    def __init__(self, mean, std):
        super(Standardize, self).__init__()
        self.mean = mean
        self.std = std

    def forward(self, tensor):
        return (tensor - self.mean) / self.std

def standardizing_net(batch_t, min_std=1e-7):
    t_mean = torch.mean(batch_t, dim=0)
    t_std = torch.std(batch_t, dim=0).clamp(min=min_std)
    return Standardize(t_mean, t_std)

class ConditionalAffineFlow(nn.Module):
    def __init__(self, theta_dim, context_dim, embedding_net, hidden=50):
        super().__init__()
        self._embedding_net = embedding_net
        self.net = nn.Sequential(nn.Linear(context_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * theta_dim))

    def log_prob(self, inputs, context):
        embedded_context = self._embedding_net(context)
        shift, log_scale = self.net(embedded_context).chunk(2, dim=-1)
        noise = (inputs - shift) * torch.exp(-log_scale)
        log_base = -0.5 * (noise ** 2).sum(-1) - 0.5 * noise.shape[-1] * math.log(2 * math.pi)
        return log_base - log_scale.sum(-1)

def build_maf(batch_x, batch_y, z_score_x=True, z_score_y=True, embedding_net=nn.Identity()):
    if z_score_y:
        embedding_net = nn.Sequential(standardizing_net(batch_y), embedding_net)
    return ConditionalAffineFlow(batch_x.shape[1], batch_y.shape[1], embedding_net)

class SNPE:
    def __init__(self, prior, density_estimator="maf", device="cpu"):
        self._prior = prior
        self._device = device
        self._build_neural_net = build_maf
        self._neural_net = None

    def append_simulations(self, theta, x):
        self._theta, self._x = theta, x
        return self

    def train(self, training_batch_size=50, learning_rate=5e-4, max_num_epochs=1):
        if self._neural_net is None:
            self._neural_net = self._build_neural_net(self._theta[:200], self._x[:200])
        self._neural_net.to(self._device)
        optimizer = torch.optim.Adam(list(self._neural_net.parameters()), lr=learning_rate)
        for epoch in range(max_num_epochs):
            for i in range(0, len(self._theta), training_batch_size):
                theta_batch = self._theta[i:i + training_batch_size].to(self._device)
                x_batch = self._x[i:i + training_batch_size].to(self._device)
                optimizer.zero_grad()
                loss = -self._neural_net.log_prob(theta_batch, x_batch).mean()
                loss.backward()
                optimizer.step()
        return self._neural_net

num_dim = 3
prior = torch.distributions.Independent(torch.distributions.Uniform(-2 * torch.ones(num_dim), 2 * torch.ones(num_dim)), 1)
def linear_gaussian(theta):
    return theta + 1.0 + torch.randn_like(theta) * 0.1
theta = prior.sample((500,))
x = linear_gaussian(theta)
inference = SNPE(prior, density_estimator="maf", device="meta")     # device="cuda" in the report
'''
CELL = '''
density_estimator = inference.append_simulations(theta, x).train()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "expected device cuda:0 but got device cpu")
CULPRITS = ["inference._neural_net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.mean = mean
        self.std = std""", """        self.register_buffer("mean", mean)
        self.register_buffer("std", std)""")
CLEAN = False
