"""SuperGlue's log-space Sinkhorn with a dustbin: Python-int sizes and a scalar parameter, all put on the scores' device.

Source: https://github.com/magicleap/SuperGluePretrainedNetwork/blob/master/models/superglue.py
Look-alike: `log_optimal_transport` builds the marginals from the Python ints `m`, `n` through
`one = scores.new_tensor(1)` and `(m*one).to(scores)`, expands the learned `bin_score` parameter into the
dustbin row/column, and starts the iterations from `torch.zeros_like(log_mu)`; nothing is created on the
default device, so the matcher runs wherever the scores are. Stand-in: SuperGlue's final projection and
the optimal-transport layer; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def log_sinkhorn_iterations(Z, log_mu, log_nu, iters):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
    return Z + u.unsqueeze(2) + v.unsqueeze(1)

def log_optimal_transport(scores, alpha, iters):
    b, m, n = scores.shape
    one = scores.new_tensor(1)
    ms, ns = (m*one).to(scores), (n*one).to(scores)

    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)

    couplings = torch.cat([torch.cat([scores, bins0], -1),
                           torch.cat([bins1, alpha], -1)], 1)

    norm = - (ms + ns).log()
    log_mu = torch.cat([norm.expand(m), ns.log()[None] + norm])
    log_nu = torch.cat([norm.expand(n), ms.log()[None] + norm])
    log_mu, log_nu = log_mu[None].expand(b, -1), log_nu[None].expand(b, -1)

    Z = log_sinkhorn_iterations(couplings, log_mu, log_nu, iters)
    Z = Z - norm
    return Z

class SuperGlueHead(nn.Module):
    def __init__(self, descriptor_dim=32, sinkhorn_iterations=20):
        super().__init__()
        self.final_proj = nn.Conv1d(descriptor_dim, descriptor_dim, kernel_size=1, bias=True)
        self.bin_score = nn.Parameter(torch.tensor(1.))
        self.descriptor_dim = descriptor_dim
        self.sinkhorn_iterations = sinkhorn_iterations

    def forward(self, desc0, desc1):
        mdesc0, mdesc1 = self.final_proj(desc0), self.final_proj(desc1)
        scores = torch.einsum('bdn,bdm->bnm', mdesc0, mdesc1)
        scores = scores / self.descriptor_dim**.5
        return log_optimal_transport(scores, self.bin_score, iters=self.sinkhorn_iterations)

device = "meta"                         # 'cuda' in the demo scripts
superglue = SuperGlueHead().eval().to(device)
desc0 = torch.randn(1, 32, 120, device=device)
desc1 = torch.randn(1, 32, 140, device=device)
'''
CELL = '''
with torch.no_grad():
    scores = superglue(desc0, desc1)
    max0, max1 = scores[:, :-1, :-1].max(2), scores[:, :-1, :-1].max(1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
