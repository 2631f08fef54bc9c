"""scvi-tools `@auto_move_data`: CPU tensors handed to a module on cuda:0 are moved by the decorator.

Source: https://github.com/scverse/scvi-tools/blob/main/src/scvi/module/base/_decorators.py
scvi-tools decorates module methods such as `inference`/`generative` with `auto_move_data`: outside
training it finds the device of the module's parameters and moves every tensor argument (also inside
dicts/lists) there before calling the method. Passing a CPU minibatch from `AnnData` to a module that
lives on the GPU is therefore correct. Stand-ins: the decorator and its collection walker, a small
VAE-style module whose `inference` is decorated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections.abc import Mapping, Sequence
from functools import wraps
import numpy as np
import torch
from torch import nn
from torch.nn.functional import one_hot

def _apply_to_collection(data, dtype, function):
    if isinstance(data, dtype):
        return function(data)
    if isinstance(data, Mapping):
        return type(data)({k: _apply_to_collection(v, dtype, function) for k, v in data.items()})
    if isinstance(data, Sequence) and not isinstance(data, str):
        return type(data)([_apply_to_collection(d, dtype, function) for d in data])
    return data

def _move_data_to_device(batch, device):
    def batch_to(data):
        kwargs = {"non_blocking": True} if isinstance(data, torch.Tensor) else {}
        return data.to(device, **kwargs)
    return _apply_to_collection(batch, dtype=torch.Tensor, function=batch_to)

def auto_move_data(fn):
    """Stand-in for scvi.module.base.auto_move_data."""
    @wraps(fn)
    def auto_transfer_args(self, *args, **kwargs):
        if not isinstance(self, nn.Module):
            return fn(self, *args, **kwargs)
        if self.training:
            return fn(self, *args, **kwargs)
        device = list({p.device for p in self.parameters()})
        if len(device) > 1:
            raise RuntimeError("Module tensors on multiple devices.")
        device = device[0]
        args = _move_data_to_device(args, device)
        kwargs = _move_data_to_device(kwargs, device)
        return fn(self, *args, **kwargs)
    return auto_transfer_args

class VAE(nn.Module):
    def __init__(self, n_input, n_batch, n_latent=10, n_hidden=64):
        super().__init__()
        self.n_batch = n_batch
        self.encoder = nn.Sequential(nn.Linear(n_input + n_batch, n_hidden), nn.ReLU())
        self.mean_encoder = nn.Linear(n_hidden, n_latent)
        self.var_encoder = nn.Linear(n_hidden, n_latent)

    @auto_move_data
    def inference(self, x, batch_index):
        x_ = torch.log1p(x)
        cat = one_hot(batch_index.squeeze(-1), self.n_batch).float()
        q = self.encoder(torch.cat([x_, cat], dim=-1))
        return {"qz_m": self.mean_encoder(q), "qz_v": torch.exp(self.var_encoder(q)) + 1e-4}

rng = np.random.default_rng(0)
module = VAE(n_input=40, n_batch=3)
module = module.to("cuda:0")
module.eval()
tensors = {                                             # a minibatch from the AnnData loader, on the CPU
    "X": torch.from_numpy(rng.poisson(1.0, size=(32, 40)).astype(np.float32)),
    "batch": torch.from_numpy(rng.integers(0, 3, size=(32, 1))),
}
'''
CELL = '''
with torch.no_grad():
    outputs = module.inference(tensors["X"], tensors["batch"])
qz_m = outputs["qz_m"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
