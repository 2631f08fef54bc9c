"""pythae `NormalSampler.sample` draws latent codes with `torch.randn(...)` on the CPU and immediately moves them to the sampler's device before decoding.

Source: https://github.com/clementchadebec/benchmark_VAE/blob/main/src/pythae/samplers/normal_sampling/normal_sampler.py
`BaseSampler.__init__` sets `self.device` ("cuda" when available), stores it on the model and calls
`self.model.to(device)`; `NormalSampler.sample` then does
`z = torch.randn(batch_size, self.model.latent_dim).to(self.device)` and
`x_gen = self.model.decoder(z)["reconstruction"].detach()` per batch, concatenating the batches.
A `torch.randn` without `device=` feeding a CUDA decoder looks like the usual VAE sampling bug, but
the `.to(self.device)` makes it right.
Stand-in: pythae's `BaseSampler`/`NormalSampler.sample` (image saving left out) and a small VAE whose
decoder returns a `ModelOutput`-like dict; the sampler's device written `"cuda:0"`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ModelOutput(dict):
    pass

class Decoder_MLP(nn.Module):
    def __init__(self, latent_dim, out_dim=784):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(latent_dim, 256), nn.ReLU(), nn.Linear(256, out_dim), nn.Sigmoid())
    def forward(self, z):
        return ModelOutput(reconstruction=self.layers(z).reshape(z.shape[0], 1, 28, 28))

class VAE(nn.Module):
    def __init__(self, latent_dim=16):
        super().__init__()
        self.latent_dim = latent_dim
        self.encoder = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 2 * latent_dim))
        self.decoder = Decoder_MLP(latent_dim)

class BaseSampler:
    def __init__(self, model, sampler_config=None):
        self.model = model
        self.model.eval()
        device = "cuda:0"
        self.device = device
        self.model.device = device
        self.model.to(device)

class NormalSampler(BaseSampler):
    def sample(self, num_samples=1, batch_size=500, output_dir=None, return_gen=True,
               save_sampler_config=False):
        full_batch_nbr = int(num_samples / batch_size)
        last_batch_samples_nbr = num_samples % batch_size

        x_gen_list = []

        for i in range(full_batch_nbr):
            z = torch.randn(batch_size, self.model.latent_dim).to(self.device)
            x_gen = self.model.decoder(z)["reconstruction"].detach()
            x_gen_list.append(x_gen)

        if last_batch_samples_nbr > 0:
            z = torch.randn(last_batch_samples_nbr, self.model.latent_dim).to(
                self.device
            )
            x_gen = self.model.decoder(z)["reconstruction"].detach()
            x_gen_list.append(x_gen)

        if return_gen:
            return torch.cat(x_gen_list, dim=0)

my_trained_vae = VAE(latent_dim=16)
my_sampler = NormalSampler(model=my_trained_vae)
'''
CELL = '''
gen_data = my_sampler.sample(num_samples=50, batch_size=20)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
