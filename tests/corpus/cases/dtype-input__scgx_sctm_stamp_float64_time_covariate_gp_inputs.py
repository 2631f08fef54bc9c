"""scTM STAMP with a float64 time covariate: the GP inputs become Double and meet Float topic weights.

Source: https://github.com/JinmiaoChenLab/scTM/issues/5
`model.train(device="cuda:0")` raised "RuntimeError: expected scalar type Float but found Double".
The maintainer suspected a Double input; the user reported the fix: "I have changed my
`time_covariate_keys` to `np.float32` ... to successfully run STAMP". STAMP turns the unique values of
`adata.obs[time_covariate_keys]` into `gp_inputs` with `torch.from_numpy(minmax_scale(...))`, so a
float64 column makes a float64 GP kernel whose Cholesky factor is matmul'ed with the float32 sample.
Stand-ins: a dict-based AnnData, numpy `factorize`/`minmax_scale`, STAMP/STAMP module reduced to the
time-GP path (deterministic draws instead of pyro sample sites), one optimisation step per `train`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class AnnData:
    def __init__(self, X, obs):
        self.X = X
        self.obs = obs
        self.n_obs, self.n_vars = X.shape

def factorize(values):
    uniques, codes = np.unique(values, return_inverse=True)
    return codes, uniques

def minmax_scale(x):
    return (x - x.min()) / (x.max() - x.min())

def rbf_kernel_batch(data, variance, lengthscale):
    data = data[..., None]
    abs_dist = torch.abs(torch.cdist(data, data, p=1.0))
    return (variance[..., None, None]
            * (1 + math.sqrt(3) * abs_dist / lengthscale[..., None, None])
            * torch.exp(-math.sqrt(3) * abs_dist / lengthscale[..., None, None]))

class STAMPModule(nn.Module):
    """Stand-in for sctm.model.spatialLDAModel, time-GP path only."""
    def __init__(self, n_genes, n_topics, n_time, gp_inputs, hidden_size=32):
        super().__init__()
        self.n_genes, self.n_topics, self.n_time = n_genes, n_topics, n_time
        self.register_buffer("gp_inputs", gp_inputs, persistent=False)
        self.encoder = nn.Sequential(nn.Linear(n_genes, hidden_size), nn.ReLU(), nn.Linear(hidden_size, n_topics))
        self.lambda_tilde = nn.Parameter(torch.ones(n_topics, n_genes))
        self.beta_gp_loc = nn.Parameter(torch.zeros(n_topics, n_genes, n_time))

    def forward(self, x, time_covariate_code):
        topics = torch.softmax(self.encoder(torch.log1p(x)), dim=-1)                 # (cells, topics)
        lengthscale = torch.ones(self.n_topics, 1, device=x.device).expand(-1, self.n_genes)
        beta_gp_cov = rbf_kernel_batch(self.gp_inputs.expand(self.n_topics, self.n_genes, -1),
                                       self.lambda_tilde ** 2, lengthscale)
        jitter = torch.eye(self.n_time, device=x.device) * 1e-4
        beta_gp_chole = torch.linalg.cholesky(beta_gp_cov + jitter)
        beta_gp = self.beta_gp_loc + 0.1 * torch.ones_like(self.beta_gp_loc)        # the pyro draw
        beta_gp = beta_gp_chole.matmul(beta_gp.unsqueeze(-1)).squeeze(-1)            # (topics, genes, time)
        beta_t = beta_gp.permute(2, 0, 1)[time_covariate_code]                       # (cells, topics, genes)
        rate = torch.einsum("ct,ctg->cg", topics, torch.softmax(beta_t, dim=-1)) * x.sum(-1, keepdim=True)
        return -(x * torch.log(rate + 1e-8) - rate).sum(-1).mean()

class STAMP:
    """Stand-in for sctm.stamp.STAMP."""
    def __init__(self, adata, n_topics=5, time_covariate_keys=None):
        self.adata = adata
        time_covariate = adata.obs[time_covariate_keys]
        time_covariate_codes, time_covariate_unique = factorize(time_covariate)
        self.time_covariate_codes = torch.from_numpy(time_covariate_codes)
        self.gp_inputs = np.array(time_covariate_unique)
        self.gp_inputs = minmax_scale(self.gp_inputs)
        self.gp_inputs = torch.from_numpy(self.gp_inputs)
        self.n_time = len(time_covariate_unique)
        self.model = STAMPModule(adata.n_vars, n_topics, self.n_time, self.gp_inputs)

    def train(self, max_epochs=1, learning_rate=0.01, device="cuda:0"):
        self.device = device
        self.model = self.model.to(device)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=learning_rate)
        x = torch.from_numpy(np.asarray(self.adata.X, dtype=np.float32)).to(device)
        codes = self.time_covariate_codes.to(device)
        for epoch in range(max_epochs):
            loss = self.model(x, codes)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

rng = np.random.default_rng(0)
counts = rng.poisson(2.0, size=(60, 40)).astype(np.float64)                     # adata.layers['count']
adata = AnnData(counts, obs={"time": rng.choice([0.0, 7.0, 14.0, 28.0], size=60)})   # days, float64
'''
CELL = '''
model = STAMP(adata, n_topics=5, time_covariate_keys="time")
model.train(max_epochs=1, device="cpu")
'''
EXPECT_ERROR = ("expected scalar type", "must have the same dtype")
CULPRITS = ["adata.obs['time']"]
FIX = "namespace"
REFERENCE_FIX = '''
adata.obs["time"] = adata.obs["time"].astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
