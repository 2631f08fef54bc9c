"""Conditional VAE on the GPU: the reparameterization noise is drawn with torch.randn, on the CPU.

Source: https://github.com/timbmg/VAE-CVAE-MNIST/pull/4
"Fix crashes when using GPU": the model and the batches were on cuda, but `forward` drew
`eps = torch.randn([batch_size, self.latent_size])` with no device, so `z = eps * std + means`
mixed a CPU tensor with cuda ones. The PR moved the sampling into a reparameterize function that
creates the noise on the right device.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VAE(nn.Module):
    def __init__(self, latent_size=4, num_labels=10):
        super().__init__()
        self.latent_size = latent_size
        self.encoder = nn.Sequential(nn.Linear(28 * 28 + num_labels, 64), nn.ReLU())
        self.linear_means = nn.Linear(64, latent_size)
        self.linear_log_var = nn.Linear(64, latent_size)
        self.decoder = nn.Sequential(nn.Linear(latent_size + num_labels, 64), nn.ReLU(),
                                     nn.Linear(64, 28 * 28), nn.Sigmoid())

    def forward(self, x, c):
        batch_size = x.size(0)
        h = self.encoder(torch.cat((x.view(batch_size, -1), c), dim=-1))
        means, log_var = self.linear_means(h), self.linear_log_var(h)
        std = torch.exp(0.5 * log_var)
        eps = torch.randn([batch_size, self.latent_size])
        z = eps * std + means
        recon_x = self.decoder(torch.cat((z, c), dim=-1))
        return recon_x, means, log_var, z

device = torch.device("cuda:0")
vae = VAE().to(device)
x = torch.rand(8, 1, 28, 28).to(device)
y = torch.randint(0, 10, (8,))
c = torch.nn.functional.one_hot(y, 10).float().to(device)
'''
CELL = '''
recon_x, mean, log_var, z = vae(x, c)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["eps"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.randn([batch_size, self.latent_size])",
                  "torch.randn([batch_size, self.latent_size], device=x.device)")
CLEAN = False
