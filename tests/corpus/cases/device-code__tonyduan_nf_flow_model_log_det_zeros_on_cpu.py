"""tonyduan/normalizing-flows `NormalizingFlowModel.forward` starts `log_det = torch.zeros(m)` on the CPU; prior, flows and data are on the GPU.

Source: https://github.com/tonyduan/normalizing-flows/pull/6
"Add GPU support for model and flows" (after issue #4, "GPU Usage ... some components do not seem to
like it"): with `prior = MultivariateNormal(torch.zeros(2).to(device), torch.eye(2).to(device))`,
`model = NormalizingFlowModel(prior, flows).to(device)` and `x = torch.Tensor(gen_data(n)).to(device)`,
training still mixed devices because the model's `forward` accumulates into `torch.zeros(m)` (no
device); the repository's model now creates it with `device=x.device`. Reduced: two `AffineCouplingLayer` (RealNVP) flows from the repository's
`nf/flows.py`, a two-moons-like sample, one optimizer step; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read meta tensors

class FCNN(nn.Module):
    def __init__(self, in_dim, out_dim, hidden_dim):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(in_dim, hidden_dim), nn.Tanh(),
                                     nn.Linear(hidden_dim, hidden_dim), nn.Tanh(),
                                     nn.Linear(hidden_dim, out_dim))
    def forward(self, x):
        return self.network(x)

class AffineCouplingLayer(nn.Module):
    def __init__(self, dim, hidden_dim, base_network=FCNN):
        super().__init__()
        self.dim = dim
        self.t1 = base_network(dim // 2, dim // 2, hidden_dim)
        self.s1 = base_network(dim // 2, dim // 2, hidden_dim)
        self.t2 = base_network(dim // 2, dim // 2, hidden_dim)
        self.s2 = base_network(dim // 2, dim // 2, hidden_dim)
    def forward(self, x):
        lower, upper = x[:, :self.dim // 2], x[:, self.dim // 2:]
        t1_transformed = self.t1(lower)
        s1_transformed = self.s1(lower)
        upper = t1_transformed + upper * torch.exp(s1_transformed)
        t2_transformed = self.t2(upper)
        s2_transformed = self.s2(upper)
        lower = t2_transformed + lower * torch.exp(s2_transformed)
        z = torch.cat([lower, upper], dim=1)
        log_det = torch.sum(s1_transformed, dim=1) + torch.sum(s2_transformed, dim=1)
        return z, log_det

class NormalizingFlowModel(nn.Module):
    def __init__(self, prior, flows):
        super().__init__()
        self.prior = prior
        self.flows = nn.ModuleList(flows)
    def forward(self, x):
        m, _ = x.shape
        log_det = torch.zeros(m)
        for flow in self.flows:
            x, ld = flow.forward(x)
            log_det += ld
        z, prior_logprob = x, self.prior.log_prob(x)
        return z, prior_logprob, log_det

def gen_data(n=512):
    t = torch.rand(n) * 3.14
    return torch.stack([torch.cos(t), torch.sin(t)], dim=1) + 0.1 * torch.randn(n, 2)

device = torch.device("meta")                      # 'cuda' in the PR's instructions
prior = MultivariateNormal(torch.zeros(2).to(device), torch.eye(2).to(device))
flows = [AffineCouplingLayer(dim=2, hidden_dim=8) for _ in range(2)]
model = NormalizingFlowModel(prior, flows).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.005)
x = torch.Tensor(gen_data(512)).to(device)
'''
CELL = '''
optimizer.zero_grad()
z, prior_logprob, log_det = model(x)
logprob = prior_logprob + log_det
loss = -torch.mean(prior_logprob + log_det)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("log_det = torch.zeros(m)", "log_det = torch.zeros(m, device=x.device)")
CLEAN = False
