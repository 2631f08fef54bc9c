"""Look-alike: laplace-torch's `fit` takes a CPU `train_loader` for a CUDA model and moves each batch itself; the float prior precision is made on the model's device.

Source: https://github.com/aleximmer/Laplace/blob/main/laplace/baselaplace.py
`BaseLaplace.__init__` records `self._device = next(model.parameters()).device`; the
`prior_precision` setter turns a Python float into `torch.as_tensor([prior_precision],
device=self._device, dtype=self._dtype)`; `fit` runs `X, y = data; X, y = X.to(self._device),
y.to(self._device)` for every batch of the CPU loader (and probes the output size with
`self.model(X[:1].to(self._device))`); `prior_precision_diag` builds its ones with
`device=self._device`. CPU data next to a GPU model is the documented usage. Stand-in: a last-layer
diagonal Laplace for regression whose curvature closure is the closed-form GGN diagonal of the last
`nn.Linear` (no autograd in the simulation) and a sequential DataLoader stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

class DiagLLLaplace:
    """Stand-in for laplace's last-layer diagonal Laplace (likelihood='regression')."""
    def __init__(self, model, likelihood, sigma_noise=1.0, prior_precision=1.0):
        self.model = model
        self.likelihood = likelihood
        self._device = next(model.parameters()).device
        self._dtype = next(model.parameters()).dtype
        self.sigma_noise = sigma_noise
        self.prior_precision = prior_precision

    @property
    def prior_precision(self):
        return self._prior_precision

    @prior_precision.setter
    def prior_precision(self, prior_precision):
        if np.isscalar(prior_precision) and np.isreal(prior_precision):
            self._prior_precision = torch.as_tensor([prior_precision], device=self._device, dtype=self._dtype)
        else:
            self._prior_precision = prior_precision.reshape(-1).to(device=self._device, dtype=self._dtype)

    def fit(self, train_loader):
        self.model.eval()
        X = next(iter(train_loader))[0]
        with torch.no_grad():
            out = self.model(X[:1].to(self._device))
        self.n_outputs = out.shape[-1]
        last_layer = self.model[-1]
        self.n_params = last_layer.weight.numel() + last_layer.bias.numel()
        self.H = torch.zeros(self.n_params, device=self._device, dtype=self._dtype)
        self.loss = 0.0
        for data in train_loader:
            X, y = data
            X, y = X.to(self._device), y.to(self._device)
            loss_batch, H_batch = self._curv_closure(X, y)
            self.loss += loss_batch
            self.H += H_batch
        self.n_data = len(train_loader.dataset)

    def _curv_closure(self, X, y):
        phi = self.model[:-1](X)
        f = self.model[-1](phi)
        loss = 0.5 * ((f - y) ** 2).sum()
        H_w = (phi ** 2).sum(0).repeat(self.n_outputs)
        H_b = torch.full((self.n_outputs,), float(X.shape[0]), device=X.device, dtype=X.dtype)
        return loss, torch.cat([H_w, H_b])

    @property
    def prior_precision_diag(self):
        return self.prior_precision * torch.ones(self.n_params, device=self._device, dtype=self._dtype)

    @property
    def posterior_precision(self):
        return self.H / self.sigma_noise ** 2 + self.prior_precision_diag

    @property
    def posterior_variance(self):
        return 1 / self.posterior_precision

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(1, 50), nn.Tanh(), nn.Linear(50, 1)).to(device)   # MAP-trained on the GPU
X_train = torch.rand(120, 1) * 8 - 4
y_train = torch.sin(X_train) + 0.3 * torch.randn(120, 1)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=40)
la = DiagLLLaplace(model, 'regression', sigma_noise=0.3, prior_precision=1.0)
'''
CELL = '''
la.fit(train_loader)
post_var = la.posterior_variance
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
