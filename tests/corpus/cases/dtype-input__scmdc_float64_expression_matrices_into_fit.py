"""scMDC clustering stage: the preprocessed float64 expression matrices go through `torch.tensor` into float32 encoders.

Source: https://github.com/xianglin226/scMDC/issues/8
Running `run_scMDC.py` on a 10x multiome dataset ended in "mat1 and mat2 must have the same dtype,
but got Double and Float" once pretraining was done: `scMultiCluster.fit` turns its inputs with
`X1 = torch.tensor(X1).cuda()` (and the same for X2), which keeps the float64 of the normalised
AnnData matrices, and `encodeBatch` feeds them to the float32 `encoder1` / `encoder2`.
(`pretrain_autoencoder` wraps the same arrays in `torch.Tensor(...)`, which casts to float32, so the
first stage ran.) Stand-in: the model reduced to its two encoders and the latent layer, `fit` to its
first `encodeBatch`; CPU only, so `.cuda()` is dropped.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn

def buildNetwork(layers, activation="relu"):
    net = []
    for i in range(1, len(layers)):
        net.append(nn.Linear(layers[i - 1], layers[i]))
        net.append(nn.ReLU() if activation == "relu" else nn.ELU())
    return nn.Sequential(*net)

class scMultiCluster(nn.Module):
    def __init__(self, input_dim1, input_dim2, encodeLayer=(64, 32), z_dim=16, sigma1=2.5, sigma2=0.1):
        super().__init__()
        self.z_dim, self.sigma1, self.sigma2 = z_dim, sigma1, sigma2
        self.encoder1 = buildNetwork([input_dim1, *encodeLayer])
        self.encoder2 = buildNetwork([input_dim2, *encodeLayer])
        self.latent_enc = nn.Linear(2 * encodeLayer[-1], z_dim)

    def forward_AE(self, x1, x2):
        h10 = self.encoder1(x1)
        h20 = self.encoder2(x2)
        combine_latent0 = torch.cat([h10, h20], dim=-1)
        return self.latent_enc(combine_latent0)

    def encodeBatch(self, X1, X2, batch_size=256):
        encoded = []
        num = X1.shape[0]
        num_batch = int(math.ceil(1.0 * X1.shape[0] / batch_size))
        for batch_idx in range(num_batch):
            x1batch = X1[batch_idx * batch_size: min((batch_idx + 1) * batch_size, num)]
            x2batch = X2[batch_idx * batch_size: min((batch_idx + 1) * batch_size, num)]
            z = self.forward_AE(x1batch, x2batch)
            encoded.append(z.data)
        return torch.cat(encoded, dim=0)

    def fit(self, X1, X_raw1, sf1, X2, X_raw2, sf2, y=None, lr=1., n_clusters=4, batch_size=256):
        X1 = torch.tensor(X1)
        X_raw1 = torch.tensor(X_raw1)
        sf1 = torch.tensor(sf1)
        X2 = torch.tensor(X2)
        X_raw2 = torch.tensor(X_raw2)
        sf2 = torch.tensor(sf2)
        self.mu = nn.Parameter(torch.Tensor(n_clusters, self.z_dim))
        Zdata = self.encodeBatch(X1, X2, batch_size=batch_size)
        return Zdata

class AnnData:
    def __init__(self, X):
        self.X, self.raw_X = X, np.round(X * 10)
        self.obs = {"size_factors": X.sum(1) / X.sum(1).mean()}

rng = np.random.default_rng(0)
adata1 = AnnData(np.log1p(rng.poisson(1.0, size=(500, 200)) / 1.0))   # normalised RNA, float64
adata2 = AnnData(np.log1p(rng.poisson(0.5, size=(500, 120)) / 1.0))   # normalised ATAC, float64

model = scMultiCluster(input_dim1=adata1.X.shape[1], input_dim2=adata2.X.shape[1])
'''
CELL = '''
Zdata = model.fit(X1=adata1.X, X_raw1=adata1.raw_X, sf1=adata1.obs["size_factors"],
                  X2=adata2.X, X_raw2=adata2.raw_X, sf2=adata2.obs["size_factors"],
                  n_clusters=12, batch_size=256)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["adata1.X", "adata2.X"]
FIX = "namespace"
REFERENCE_FIX = '''
adata1.X = adata1.X.astype(np.float32)
adata2.X = adata2.X.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
