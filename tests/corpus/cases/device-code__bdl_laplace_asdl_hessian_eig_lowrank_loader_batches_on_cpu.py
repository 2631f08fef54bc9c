"""laplace-torch low-rank Laplace on a GPU model: `AsdlHessian.eig_lowrank` feeds the train_loader's CPU batches to the CUDA model.

Source: https://github.com/aleximmer/Laplace/issues/73
"AsdlHessian data and model on separate devices": in `eig_lowrank` the final loss is computed as
`sum([self.lossfunc(self.model(x).detach(), y) for x, y in data_loader])`, so the CPU batches of the
`train_loader` passed to `la.fit` meet the model's CUDA weights; "A simple change - .to(device)
would make it work". The maintainer's fix (PR #74) moves `x` and `y` to the eigenvectors' device.
Stand-in: `Laplace(...)` dispatching to a LowRankLaplace whose `fit` calls the AsdlHessian backend;
asdfghjkl's `hessian_eigenvalues` (which moves each batch itself) reduced to returning the top
eigenpairs, the DataLoader to sequential batches, and the `eigvals > EPS` mask left out (all returned eigenvalues are positive).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import TensorDataset

class DataLoader:
    """Stand-in for torch.utils.data.DataLoader: sequential CPU batches of a TensorDataset."""
    def __init__(self, dataset, batch_size=1):
        self.dataset = dataset
        self.batch_size = batch_size
    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            yield tuple(t[i:i + self.batch_size] for t in self.dataset.tensors)
    def __len__(self):
        return (len(self.dataset) + self.batch_size - 1) // self.batch_size

EPS = 1e-6

def hessian_eigenvalues(model, loss_fn, data_loader, top_n=1, max_iters=100):
    """Stand-in for asdfghjkl.hessian_eigenvalues: power iteration on the GGN/Hessian,
    moving every batch to the model's device itself."""
    device = next(model.parameters()).device
    for x, y in data_loader:
        loss_fn(model(x.to(device)), y.to(device))
    eigvals = [float(top_n - i) for i in range(top_n)]
    eigvecs = [[torch.randn_like(p) for p in model.parameters()] for _ in range(top_n)]
    return eigvals, eigvecs

class AsdlHessian:
    """Stand-in for laplace.curvature.AsdlHessian."""
    def __init__(self, model, likelihood, last_layer=False, low_rank=10):
        self.model = model
        self.likelihood = likelihood
        self.last_layer = last_layer
        self.low_rank = low_rank
        self.lossfunc = nn.CrossEntropyLoss(reduction='sum')
        self.factor = 1.0

    def eig_lowrank(self, data_loader):
        # compute truncated eigendecomposition of the Hessian, only keep eigvals > EPS
        eigvals, eigvecs = hessian_eigenvalues(self.model, self.lossfunc, data_loader,
                                               top_n=self.low_rank, max_iters=self.low_rank*10)
        eigvals = torch.from_numpy(np.array(eigvals))
        eigvecs = torch.stack([torch.cat([p.flatten() for p in params])
                               for params in eigvecs], dim=1)
        eigvals = eigvals.to(eigvecs.dtype).to(eigvecs.device)
        loss = sum([self.lossfunc(self.model(x).detach(), y) for x, y in data_loader])
        return eigvecs, self.factor * eigvals, self.factor * loss

class LowRankLaplace:
    """Stand-in for laplace.LowRankLaplace (subset_of_weights='all', hessian_structure='lowrank')."""
    def __init__(self, model, likelihood, sigma_noise=1., prior_precision=1., backend=AsdlHessian):
        self.model = model
        self.likelihood = likelihood
        self._device = next(model.parameters()).device
        self.prior_precision = torch.tensor([prior_precision]).to(self._device)
        self.backend = backend(self.model, self.likelihood)

    def fit(self, train_loader):
        self.model.eval()
        eigenvectors, eigenvalues, loss = self.backend.eig_lowrank(train_loader)
        self.H = (eigenvectors, eigenvalues)
        self.loss = loss
        self.n_data = len(train_loader.dataset)

def Laplace(model, likelihood, subset_of_weights='last_layer', hessian_structure='kron', **kwargs):
    assert (subset_of_weights, hessian_structure) == ('all', 'lowrank')
    return LowRankLaplace(model, likelihood, **kwargs)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 50), nn.Tanh(), nn.Linear(50, 5)).to(device)   # trained on the GPU
X_train = torch.randn(96, 20)
y_train = torch.randint(0, 5, (96,))
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32)
la = Laplace(model, 'classification', subset_of_weights='all', hessian_structure='lowrank')
'''
CELL = '''
la.fit(train_loader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["la.backend"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("loss = sum([self.lossfunc(self.model(x).detach(), y) for x, y in data_loader])",
                  "loss = sum([self.lossfunc(self.model(x.to(eigvecs.device)).detach(), y.to(eigvecs.device)) for x, y in data_loader])")
CLEAN = False
