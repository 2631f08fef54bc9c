"""scTour on an AnnData whose count matrix is float64: the encoder's first Linear gets Double input.

Source: https://github.com/LiQian-XC/sctour/issues/14
`tnode = sct.train.Trainer(adata, loss_mode='nb', ...); tnode.train()` raised "mat1 and mat2 must
have the same dtype, but got Double and Float". The counts had been restored from `adata.raw`
(`ov.utils.retrieve_layers(adata_counts, layers='counts')`) and `adata.X` was float64; the user
then "solved this problem after converting adata.X from f[loat64 to float32]". Stand-in: a tiny
AnnData-like holder and a Trainer that batches `adata.X` as tensors (`torch.tensor(X[idx])`).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class AnnData:
    def __init__(self, X):
        self.X = X
        self.n_obs, self.n_vars = X.shape

class TNODE(nn.Module):
    def __init__(self, n_int, n_latent=5, n_hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_int, n_hidden), nn.ReLU(), nn.Linear(n_hidden, 2 * n_latent))
        self.decoder = nn.Sequential(nn.Linear(n_latent, n_hidden), nn.ReLU(), nn.Linear(n_hidden, n_int))

    def forward(self, x):
        qz_mean, qz_logvar = self.encoder(torch.log1p(x)).chunk(2, dim=-1)
        z = qz_mean + torch.randn_like(qz_mean) * torch.exp(0.5 * qz_logvar)
        return self.decoder(z)

class Trainer:
    def __init__(self, adata, loss_mode="nb", batch_size=32, lr=1e-3):
        self.adata = adata
        self.batch_size = batch_size
        self.model = TNODE(adata.n_vars)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train(self, n_epochs=1):
        X = self.adata.X
        for _ in range(n_epochs):
            for start in range(0, self.adata.n_obs, self.batch_size):
                x = torch.tensor(X[start:start + self.batch_size])
                loss = ((self.model(x) - torch.log1p(x)) ** 2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

rng = np.random.default_rng(0)
adata = AnnData(rng.poisson(1.0, size=(96, 50)).astype(np.float64))   # counts restored from adata.raw
tnode = Trainer(adata, loss_mode="nb")
'''
CELL = '''
tnode.train()
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["adata.X"]
FIX = "namespace"
REFERENCE_FIX = '''
adata.X = adata.X.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
