"""Decipher trained on "cuda:0": `compute_v_z_numpy` turns the expression matrix into a CPU tensor.

Source: https://github.com/azizilab/decipher/issues/7
With `device="cuda:0"` passed to training, the Decipher model lives on the GPU, and
`Decipher.compute_v_z_numpy` (called when the v/z spaces are written back to the AnnData) failed:
"this tensor `x` is created on CPU, it did not align its device with the device of parameters of
Decipher". The user's fix: `x = torch.tensor(x, dtype=torch.float32, device=self.device)`.
Stand-ins: `DecipherConfig`, `ConditionalDenseNN` and `Decipher` with its `dummy_param`-based
`device` property; `compute_v_z_numpy` returns the detached tensors (a simulated GPU has no data to
turn into numpy arrays).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from dataclasses import dataclass
import numpy as np
import torch
from torch import nn

@dataclass
class DecipherConfig:
    dim_z: int = 10
    dim_v: int = 2
    dim_genes: int = 0
    layers_v_to_z: tuple = (64,)
    layers_z_to_x: tuple = tuple()

    def initialize_from_adata(self, X):
        self.dim_genes = X.shape[1]

class ConditionalDenseNN(nn.Module):
    """Stand-in for decipher's ConditionalDenseNN: a dense net with one head per output size."""
    def __init__(self, input_dim, hidden_dims, output_dims):
        super().__init__()
        dims = [input_dim] + list(hidden_dims)
        layers = []
        for a, b in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        self.f = nn.Sequential(*layers)
        self.heads = nn.ModuleList([nn.Linear(dims[-1], d) for d in output_dims])

    def forward(self, x, context=None):
        h = self.f(x)
        outs = [head(h) for head in self.heads]
        return outs if len(outs) > 1 else outs[0]

class Decipher(nn.Module):
    """Stand-in for decipher.tools._decipher.decipher.Decipher."""
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.dummy_param = nn.Parameter(torch.empty(0))
        self.decoder_v_to_z = ConditionalDenseNN(config.dim_v, config.layers_v_to_z, [config.dim_z] * 2)
        self.decoder_z_to_x = ConditionalDenseNN(config.dim_z, config.layers_z_to_x, [config.dim_genes])
        self.encoder_x_to_z = ConditionalDenseNN(config.dim_genes, [128], [config.dim_z] * 2)
        self.encoder_zx_to_v = ConditionalDenseNN(config.dim_genes + config.dim_z, [128],
                                                  [config.dim_v, config.dim_v])

    @property
    def device(self):
        return self.dummy_param.device

    def compute_v_z_numpy(self, x):
        if type(x) == np.ndarray:
            x = torch.tensor(x, dtype=torch.float32)
        x = torch.log1p(x)
        z_loc, _ = self.encoder_x_to_z(x)
        zx = torch.cat([z_loc, x], dim=-1)
        v_loc, _ = self.encoder_zx_to_v(zx)
        return v_loc.detach(), z_loc.detach()

rng = np.random.default_rng(0)
X = rng.poisson(1.0, size=(64, 30)).astype(np.float32)     # get_dense_X(adata): counts, cells x genes
decipher_config = DecipherConfig()
decipher_config.initialize_from_adata(X)
decipher = Decipher(decipher_config)
decipher = decipher.to("cuda:0")                            # decipher_train(..., device="cuda:0")
decipher.eval()
'''
CELL = '''
latent_v, latent_z = decipher.compute_v_z_numpy(X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["decipher"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            x = torch.tensor(x, dtype=torch.float32)\n",
                  "            x = torch.tensor(x, dtype=torch.float32, device=self.device)\n")
CLEAN = False
