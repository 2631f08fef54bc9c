"""Look-alike: kornia `RandomGaussianNoise` caches its noise in `aug._params` and the user replays it on the same CUDA batch.

Source: https://github.com/kornia/kornia/blob/main/kornia/augmentation/_2d/intensity/gaussian_noise.py
The noise is drawn inside `apply_transform` with `torch.randn_like(input)` ("Generating on GPU is fastest"),
so it lives on the input's device, and it is stashed in `self._params["gaussian_noise"]` -- a tensor held in
a plain dict on the module, which `Module.to()` never sees. Replaying the exact augmentation with
`aug(x, params=aug._params)` (the pattern kornia's docstring shows) reuses that cached CUDA tensor on a
CUDA batch: same device, nothing to report.
Stand-in: `_randn_like` and `RandomGaussianNoise` as in kornia, with the base class reduced to the
`_params` bookkeeping and p=1.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _randn_like(input, mean, std):
    x = torch.randn_like(input)  # Generating on GPU is fastest with `torch.randn_like(...)`
    if std != 1.0:
        x *= std
    if mean != 0.0:
        x += mean
    return x

class RandomGaussianNoise(nn.Module):
    def __init__(self, mean=0.0, std=1.0, p=1.0):
        super().__init__()
        self.p = p
        self.flags = {"mean": mean, "std": std}
        self._params = {}

    def generate_parameters(self, shape):
        return {}

    def apply_transform(self, input, params, flags):
        if "gaussian_noise" in params:
            gaussian_noise = params["gaussian_noise"]
        else:
            gaussian_noise = _randn_like(input, mean=flags["mean"], std=flags["std"])
            self._params["gaussian_noise"] = gaussian_noise
        return input + gaussian_noise

    def forward(self, input, params=None):
        if params is None:
            params = self.generate_parameters(input.shape)
            self._params = dict(params)
        return self.apply_transform(input, params, self.flags)

aug = RandomGaussianNoise(mean=0.0, std=0.05, p=1.0)
x = torch.rand(4, 3, 32, 32, device="cuda:0")
first = aug(x)
'''
CELL = '''
again = aug(x, params=aug._params)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
