"""Look-alike: the pytorch/examples VAE samples its reparameterisation noise with `torch.randn_like(std)` inside forward.

Source: https://github.com/pytorch/examples/blob/main/vae/main.py
`reparameterize(self, mu, logvar)`: `std = torch.exp(0.5*logvar); eps = torch.randn_like(std);
return mu + eps*std`. The noise is made inside the model without a `device=` argument, but
`randn_like` follows `std` onto the model's GPU. `loss_function` uses `F.binary_cross_entropy` on the
reconstruction against the flattened input. Nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar

def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD

device = torch.device("cuda:0")
model = VAE().to(device)
data = torch.rand(128, 1, 28, 28).to(device)
'''
CELL = '''
with torch.no_grad():
    recon_batch, mu, logvar = model(data)
    loss = loss_function(recon_batch, data, mu, logvar)
    sample = model.decode(torch.randn(64, 20).to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
