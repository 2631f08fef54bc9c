"""Look-alike: scVI's VAE mixes int64 batch indices with float32 counts by design (one-hot then concatenated).

Source: https://github.com/scverse/scvi-tools/blob/main/src/scvi/module/_vae.py
The registered tensors come as `X` (float32 counts) and `batch_index` (int64, shape (n, 1)); the
encoder covariates are built with `one_hot(batch_index.squeeze(-1), n_batch).float()` and the library
size as `torch.log(x.sum(1)).unsqueeze(1)`, with `log1p` on the counts. Integer indices next to float
data here are intended. Stand-in: the inference/generative pieces of the VAE with a one-layer
encoder and decoder, on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class VAE(nn.Module):
    def __init__(self, n_input, n_batch=3, n_hidden=32, n_latent=10):
        super().__init__()
        self.n_batch = n_batch
        self.z_encoder = nn.Linear(n_input + n_batch, n_hidden)
        self.mean_encoder = nn.Linear(n_hidden, n_latent)
        self.decoder = nn.Linear(n_latent + n_batch, n_input)
        self.px_r = nn.Parameter(torch.randn(n_input))

    def inference(self, x, batch_index):
        x_ = torch.log1p(x)
        library = torch.log(x.sum(1)).unsqueeze(1)
        cat = F.one_hot(batch_index.squeeze(-1), self.n_batch).float()
        qz_m = self.mean_encoder(torch.relu(self.z_encoder(torch.cat([x_, cat], dim=-1))))
        return {"z": qz_m, "library": library}

    def generative(self, z, library, batch_index):
        cat = F.one_hot(batch_index.squeeze(-1), self.n_batch).float()
        px_scale = torch.softmax(self.decoder(torch.cat([z, cat], dim=-1)), -1)
        return {"px_rate": torch.exp(library) * px_scale, "px_r": torch.exp(self.px_r)}

    def forward(self, tensors):
        inf = self.inference(tensors["X"], tensors["batch"])
        return self.generative(inf["z"], inf["library"], tensors["batch"])

module = VAE(n_input=50)
tensors = {"X": torch.poisson(torch.full((16, 50), 3.0)) + 1.0,
           "batch": torch.randint(0, 3, (16, 1))}
'''
CELL = '''
outputs = module(tensors)
print(outputs["px_rate"].dtype, tensors["batch"].dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
