"""Look-alike: Pyro's VAE example builds the latent prior with `torch.zeros(..., device=x.device)` inside `model`.

Source: https://github.com/pyro-ppl/pyro/blob/dev/examples/vae/vae.py
The model method creates `z_loc = torch.zeros(x.shape[0], self.z_dim, dtype=x.dtype,
device=x.device)` and `z_scale = torch.ones(...)` on every call — tensors created inside the
forward, the usual device bug — but they take the batch's device; `vae.cuda()` moves the encoder
and decoder and the loop moves each CPU batch with `x = x.cuda()`. Stand-in: the encoder/decoder
and the model/guide log-densities (no SVI step).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.distributions import Normal, Bernoulli

class Decoder(nn.Module):
    def __init__(self, z_dim, hidden_dim):
        super().__init__()
        self.fc1 = nn.Linear(z_dim, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, 784)

    def forward(self, z):
        return torch.sigmoid(self.fc21(nn.functional.softplus(self.fc1(z))))

class Encoder(nn.Module):
    def __init__(self, z_dim, hidden_dim):
        super().__init__()
        self.fc1 = nn.Linear(784, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, z_dim)
        self.fc22 = nn.Linear(hidden_dim, z_dim)

    def forward(self, x):
        hidden = nn.functional.softplus(self.fc1(x.reshape(-1, 784)))
        return self.fc21(hidden), torch.exp(self.fc22(hidden))

class VAE(nn.Module):
    def __init__(self, z_dim=50, hidden_dim=400, use_cuda=False):
        super().__init__()
        self.encoder = Encoder(z_dim, hidden_dim)
        self.decoder = Decoder(z_dim, hidden_dim)
        if use_cuda:
            self.to("cuda:0")                  # self.cuda() in the example
        self.z_dim = z_dim

    def model_log_prob(self, x, z):
        z_loc = torch.zeros(x.shape[0], self.z_dim, dtype=x.dtype, device=x.device)
        z_scale = torch.ones(x.shape[0], self.z_dim, dtype=x.dtype, device=x.device)
        prior = Normal(z_loc, z_scale, validate_args=False).log_prob(z).sum(-1)
        loc_img = self.decoder(z)
        return prior + Bernoulli(loc_img, validate_args=False).log_prob(x.reshape(-1, 784)).sum(-1)

    def guide_sample(self, x):
        z_loc, z_scale = self.encoder(x)
        return Normal(z_loc, z_scale, validate_args=False).rsample()

vae = VAE(use_cuda=True)
train_batches = [torch.rand(16, 1, 28, 28).round() for _ in range(2)]
'''
CELL = '''
epoch_loss = 0.0
with torch.no_grad():
    for x in train_batches:
        x = x.to("cuda:0")                     # x = x.cuda() in the example
        z = vae.guide_sample(x)
        epoch_loss = epoch_loss - vae.model_log_prob(x, z).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
