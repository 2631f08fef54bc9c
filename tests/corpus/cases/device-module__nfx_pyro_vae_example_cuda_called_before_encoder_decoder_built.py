"""Pyro VAE example: `VAE.__init__` calls `self.cuda()` before it creates the encoder and decoder, so their parameters stay on the CPU.

Source: https://github.com/pyro-ppl/pyro/pull/538
"Small fix to VAE example when using CUDA": "Previously the network params weren't actually being
moved to cuda." In `examples/vae.py` the `if use_cuda: self.cuda()` block ran before
`self.encoder = Encoder(...)` / `self.decoder = Decoder(...)`, so `VAE(use_cuda=True)` moved an
empty module and the guide's `self.encoder(x)` met CUDA MNIST batches with CPU weights. The fix
(agreed by the maintainer) builds the encoder and decoder first and calls `self.cuda()` after.
Stand-in: the example's Encoder/Decoder/VAE of the time; `pyro.sample`/`pyro.observe` and
`SVI(...).step` reduced to a minimal SVI stand-in that runs the guide and the model once and returns
a Monte Carlo ELBO estimate; `self.cuda()` written `self.to("cuda:0")`; distribution argument validation off; the cached CUDA
MNIST batch replaced by random pixels on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

fudge = 1e-7

class Encoder(nn.Module):
    def __init__(self, z_dim, hidden_dim):
        super(Encoder, self).__init__()
        self.fc1 = nn.Linear(784, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, z_dim)
        self.fc22 = nn.Linear(hidden_dim, z_dim)
        self.softplus = nn.Softplus()

    def forward(self, x):
        x = x.view(-1, 784)
        hidden = self.softplus(self.fc1(x))
        z_mu = self.fc21(hidden)
        z_sigma = torch.exp(self.fc22(hidden))
        return z_mu, z_sigma

class Decoder(nn.Module):
    def __init__(self, z_dim, hidden_dim):
        super(Decoder, self).__init__()
        self.fc1 = nn.Linear(z_dim, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, 784)
        self.softplus = nn.Softplus()
        self.sigmoid = nn.Sigmoid()

    def forward(self, z):
        hidden = self.softplus(self.fc1(z))
        mu_img = (self.sigmoid(self.fc21(hidden)) + fudge) * (1 - 2 * fudge)
        return mu_img

class VAE(nn.Module):
    def __init__(self, z_dim=50, hidden_dim=400, use_cuda=False):
        super(VAE, self).__init__()
        # create the encoder and decoder networks
        if use_cuda:
            # calling cuda() here will put all the parameters of
            # the encoder and decoder networks into gpu memory
            self.to("cuda:0")
        self.use_cuda = use_cuda
        self.z_dim = z_dim
        self.encoder = Encoder(z_dim, hidden_dim)
        self.decoder = Decoder(z_dim, hidden_dim)

    def model(self, x, z):
        z_mu = x.new_zeros([x.size(0), self.z_dim])
        z_sigma = x.new_ones([x.size(0), self.z_dim])
        log_pz = torch.distributions.Normal(z_mu, z_sigma, validate_args=False).log_prob(z).sum(-1)
        mu_img = self.decoder.forward(z)
        log_px = torch.distributions.Bernoulli(mu_img, validate_args=False).log_prob(x.view(-1, 784)).sum(-1)
        return log_pz + log_px

    def guide(self, x):
        z_mu, z_sigma = self.encoder.forward(x)
        q = torch.distributions.Normal(z_mu, z_sigma, validate_args=False)
        z = q.rsample()
        return z, q.log_prob(z).sum(-1)

class SVI:
    """Stand-in for pyro.infer.SVI: one ELBO estimate per step (no gradient step here)."""
    def __init__(self, model, guide, optim=None, loss="ELBO"):
        self.model, self.guide = model, guide

    def step(self, x):
        z, log_q = self.guide(x)
        return -(self.model(x, z) - log_q).sum()

vae = VAE(use_cuda=True)
svi = SVI(vae.model, vae.guide, optim=None, loss="ELBO")
x = torch.bernoulli(torch.full((256, 784), 0.3)).to("cuda:0")
'''
CELL = '''
epoch_loss = svi.step(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["vae"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if use_cuda:
            # calling cuda() here will put all the parameters of
            # the encoder and decoder networks into gpu memory
            self.to("cuda:0")
        self.use_cuda = use_cuda
        self.z_dim = z_dim
        self.encoder = Encoder(z_dim, hidden_dim)
        self.decoder = Decoder(z_dim, hidden_dim)
""", """        self.encoder = Encoder(z_dim, hidden_dim)
        self.decoder = Decoder(z_dim, hidden_dim)

        if use_cuda:
            # calling cuda() here will put all the parameters of
            # the encoder and decoder networks into gpu memory
            self.to("cuda:0")
        self.use_cuda = use_cuda
        self.z_dim = z_dim
""")
CLEAN = False
