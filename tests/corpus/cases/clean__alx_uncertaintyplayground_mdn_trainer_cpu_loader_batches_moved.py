"""UncertaintyPlayground `MDNTrainer.train`: the DataLoader yields CPU batches (with an unused CPU sample-weight column) that are moved to the device inside the loop.

Source: https://github.com/Unco3892/UncertaintyPlayground/blob/main/uncertaintyplayground/trainers/mdn_trainer.py
The mixture-density-network trainer (after the GPU patch, v0.1.2) builds the model with
`.to(device=self.device)`, keeps `X_train`, `y_train`, `sample_weights_train` and `X_val` on the CPU
(pinned DataLoader), and moves `X_batch, y_batch` - and `X_val`/`y_val` at validation - to the device
where they are used; `weights_batch` is never moved and never used. Look-alike: CPU data tensors in the
namespace beside a GPU model, on purpose. Stand-in: MDN + Gaussian-mixture NLL, one epoch; meta plays
cuda (autograd needed; `Normal` without argument validation, which reads values), the `.item()`
logging and early stopping are left out.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal
from torch.utils.data import DataLoader, TensorDataset

class MDN(nn.Module):
    def __init__(self, input_dim, n_gaussians, dense1_units=10):
        super().__init__()
        self.z_h = nn.Sequential(nn.Linear(input_dim, dense1_units), nn.Tanh())
        self.z_pi = nn.Linear(dense1_units, n_gaussians)
        self.z_mu = nn.Linear(dense1_units, n_gaussians)
        self.z_sigma = nn.Linear(dense1_units, n_gaussians)

    def forward(self, x):
        z_h = self.z_h(x)
        pi = F.softmax(self.z_pi(z_h), -1)
        mu = self.z_mu(z_h)
        sigma = torch.exp(self.z_sigma(z_h))
        return pi, mu, sigma

def mdn_loss(y, mu, sigma, pi):
    m = Normal(loc=mu, scale=sigma, validate_args=False)
    log_prob = m.log_prob(y.unsqueeze(1))
    return -torch.logsumexp(log_prob + torch.log(pi), dim=1).mean()

class MDNTrainer:
    def __init__(self, X, y, sample_weights, device, batch_size=16, lr=1e-3, n_gaussians=5):
        self.device = device
        n_val = len(X) // 5
        self.X_train, self.X_val = X[n_val:], X[:n_val]
        self.y_train, self.y_val = y[n_val:], y[:n_val]
        self.sample_weights_train = sample_weights[n_val:]
        self.train_loader = DataLoader(TensorDataset(self.X_train, self.y_train, self.sample_weights_train),
                                       batch_size=batch_size, shuffle=False)
        self.model = MDN(input_dim=X.shape[1], n_gaussians=n_gaussians, dense1_units=20).to(device=self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train(self, num_epochs=1):
        self.model.train()
        for epoch in range(num_epochs):
            for X_batch, y_batch, weights_batch in self.train_loader:
                X_batch, y_batch = X_batch.to(self.device), y_batch.to(self.device)
                self.optimizer.zero_grad()
                pi, mu, sigma = self.model(X_batch)
                loss = mdn_loss(y_batch, mu, sigma, pi)
                loss.backward()
                self.optimizer.step()
            self.model.eval()
            with torch.no_grad():
                pi, mu, sigma = self.model(self.X_val.to(self.device))
                val_loss = mdn_loss(self.y_val.to(self.device), mu, sigma, pi)
            self.model.train()
        return val_loss

X = torch.randn(100, 20)
y = torch.randn(100)
sample_weights = torch.rand(100)
trainer = MDNTrainer(X, y, sample_weights, device=torch.device("meta"))   # "cuda" in the report
'''
CELL = '''
val_loss = trainer.train(num_epochs=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
