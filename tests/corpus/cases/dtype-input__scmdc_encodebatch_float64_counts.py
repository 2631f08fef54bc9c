"""scMDC's encodeBatch gets float64 count matrices straight from AnnData: Double vs Float.

Source: https://github.com/xianglin226/scMDC/issues/15
After pretraining, `run_scMDC.py` called
`latent = model.encodeBatch(torch.tensor(adata1.X).to(args.device), torch.tensor(adata2.X).to(args.device))`
and failed in `forwardAE` with "mat1 and mat2 must have the same dtype, but got Double and Float":
`adata.X` is float64 after preprocessing, the model float32. Stand-ins: an AnnData-like object
holding `X`, and the two-modality autoencoder's encoder path. Casting the matrices to float32 is
my choice of fix (the thread's resolution is not shown).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
import torch.nn as nn

class AnnDataStandIn:
    def __init__(self, X):
        self.X = X

class scMultiCluster(nn.Module):
    """scMDC.scMultiCluster (stand-in: the encoder path of forwardAE)."""

    def __init__(self, input_dim1, input_dim2, encodeLayer=(64, 32), z_dim=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(input_dim1 + input_dim2, encodeLayer[0]), nn.ReLU(),
                                     nn.Linear(encodeLayer[0], encodeLayer[1]), nn.ReLU())
        self._enc_mu = nn.Linear(encodeLayer[1], z_dim)

    def forwardAE(self, x1, x2):
        x = torch.cat([x1, x2], dim=-1)
        h = self.encoder(x)
        return self._enc_mu(h)

    def encodeBatch(self, X1, X2, batch_size=256):
        self.eval()
        encoded = []
        for i in range(0, X1.shape[0], batch_size):
            z = self.forwardAE(X1[i:i + batch_size], X2[i:i + batch_size])
            encoded.append(z.data)
        return torch.cat(encoded, dim=0)

args = SimpleNamespace(device="cpu", n_clusters=5)
rng = np.random.default_rng(0)
adata1 = AnnDataStandIn(np.log1p(rng.poisson(1.0, (300, 50)).astype(np.float64)))
adata2 = AnnDataStandIn(np.log1p(rng.poisson(1.0, (300, 30)).astype(np.float64)))
model = scMultiCluster(input_dim1=50, input_dim2=30).to(args.device)
'''
CELL = '''
latent = model.encodeBatch(torch.tensor(adata1.X).to(args.device), torch.tensor(adata2.X).to(args.device))
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["adata1.X", "adata2.X"]
FIX = "namespace"
REFERENCE_FIX = '''
adata1.X = adata1.X.astype(np.float32)
adata2.X = adata2.X.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
