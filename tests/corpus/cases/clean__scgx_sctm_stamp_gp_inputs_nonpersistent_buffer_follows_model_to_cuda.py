"""scTM STAMP time GP on the GPU: `gp_inputs` is a non-persistent buffer and the jitter/prior tensors use x.device.

Source: https://github.com/JinmiaoChenLab/scTM/blob/main/sctm/model.py
The STAMP module registers the scaled time points with
`self.register_buffer("gp_inputs", gp_inputs, persistent=False)`: left out of the state dict, but still
moved by `Module.to()`. The tensors made inside the model are built on the data's device
(`torch.ones(1, device=x.device)`, `torch.eye(self.n_time, device=x.device)`), so after
`STAMP.train(device="cuda:0")` moves the module, the Matern kernel, its Cholesky factor and the GP
draw all live on cuda:0. Time points were cast to float32, as the scTM issue #5 fix requires.
Stand-ins: `rbf_kernel_batch` and the module's time-GP path without pyro sample sites.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

def rbf_kernel_batch(data, variance, lengthscale):
    data = data[..., None]
    abs_dist = torch.abs(torch.cdist(data, data, p=1.0))
    return (variance[..., None, None]
            * (1 + math.sqrt(3) * abs_dist / lengthscale[..., None, None])
            * torch.exp(-math.sqrt(3) * abs_dist / lengthscale[..., None, None]))

class STAMPModule(nn.Module):
    def __init__(self, n_genes, n_topics, gp_inputs):
        super().__init__()
        self.n_genes, self.n_topics, self.n_time = n_genes, n_topics, gp_inputs.shape[0]
        self.register_buffer("gp_inputs", gp_inputs, persistent=False)
        self.lambda_tilde = nn.Parameter(torch.ones(n_topics, n_genes))
        self.beta_gp_loc = nn.Parameter(torch.zeros(n_topics, n_genes, self.n_time))

    def compute_cholesky_if_possible(self, x):
        jitter = 1e-6
        diag = torch.eye(self.n_time, device=x.device) * jitter
        return torch.linalg.cholesky(x + diag)

    def time_gp(self, x):
        lengthscale = (torch.ones(1, device=x.device) * 10).expand(self.n_topics, self.n_genes)
        beta_gp_cov = rbf_kernel_batch(self.gp_inputs.expand(self.n_topics, self.n_genes, -1),
                                       self.lambda_tilde ** 2, lengthscale)
        beta_gp_chole = self.compute_cholesky_if_possible(beta_gp_cov)
        beta_gp = torch.ones_like(self.beta_gp_loc) * 0.1 + self.beta_gp_loc
        return beta_gp_chole.matmul(beta_gp.unsqueeze(-1)).squeeze(-1)

time_points = np.array([0.0, 7.0, 14.0, 28.0], dtype=np.float32)
gp_inputs = torch.from_numpy((time_points - time_points.min()) / (time_points.max() - time_points.min()))
module = STAMPModule(n_genes=30, n_topics=5, gp_inputs=gp_inputs)
module = module.to("cuda:0")                               # STAMP.train(device="cuda:0")
x = torch.rand(16, 30).to("cuda:0")                        # batch["x"].to(device)
'''
CELL = '''
with torch.no_grad():
    beta_gp = module.time_gp(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
