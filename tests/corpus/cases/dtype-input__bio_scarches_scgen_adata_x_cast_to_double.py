"""scArches scGEN trained on an AnnData whose `X` the user cast to float64: Double batches into a float32 VAE.

Source: https://github.com/theislab/scarches/issues/105
"expected scalar type Double but found Float in forward of scGEN": the user densified the matrix
(`remove_sparsity`), then wrote `adata.X = adata.X.astype(np.double)` ("Hoped this would fix it, but
it did not") before `sca.models.scgen(adata=adata, hidden_layer_sizes=[256,128])` and
`network.train()`. The trainer turns `adata.X` into tensors as is, and the scGEN encoder weights are
float32, so the first Linear mixes Double input with Float weights; the matrix has to be float32.
Stand-in: an AnnData holder, the trainer reading `X` at train time, and a small VAE.
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
        self.n_vars = X.shape[1]

def remove_sparsity(adata):
    return adata

class vaeArith(nn.Module):
    def __init__(self, input_dim, hidden_layer_sizes=[256, 128], z_dimension=10):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(input_dim, hidden_layer_sizes[0]), nn.ReLU(),
                                     nn.Linear(hidden_layer_sizes[0], hidden_layer_sizes[1]), nn.ReLU())
        self.mu = nn.Linear(hidden_layer_sizes[1], z_dimension)
        self.decoder = nn.Linear(z_dimension, input_dim)
    def forward(self, x):
        z = self.mu(self.encoder(x))
        return self.decoder(z)

class scgen:
    def __init__(self, adata, hidden_layer_sizes=[256, 128]):
        self.adata = adata
        self.model = vaeArith(adata.n_vars, hidden_layer_sizes)
    def train(self, n_epochs=1, lr=0.001, batch_size=32):
        opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        data = torch.from_numpy(self.adata.X)
        for epoch in range(n_epochs):
            for i in range(0, data.shape[0], batch_size):
                x = data[i:i + batch_size]
                loss = ((self.model(x) - x) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()

adata = AnnData(np.random.rand(96, 50).astype(np.float32))      # sc.read(...adata_pre.h5ad)
adata = remove_sparsity(adata)
adata.X = adata.X.astype(np.double)      # Hoped this would fix it, but it did not
network = scgen(adata=adata, hidden_layer_sizes=[256, 128])
'''
CELL = '''
network.train()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same", "found dtype")
CULPRITS = ["adata.X"]
FIX = "namespace"
REFERENCE_FIX = '''
adata.X = adata.X.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
