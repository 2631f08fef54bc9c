"""pytorch_tabular DAE pretraining on the GPU: `SwapNoiseCorrupter.probas` is a plain CPU attribute, moved with `.to(x.device)` at use.

Source: https://github.com/pytorch-tabular/pytorch_tabular/blob/main/src/pytorch_tabular/ssl_models/common/noise_generators.py
`SwapNoiseCorrupter.__init__` stores `self.probas = torch.from_numpy(np.array(probas))`, a float64
tensor that is not a buffer, so `Module.to("cuda")` leaves it on the CPU; `forward` uses
`self.probas.to(x.device) * torch.ones(x.shape).to(x.device)`, so the swap mask is drawn on the
input's device. The corrupted batch and the mask stay on the GPU.
Look-alike: a plain tensor attribute left on the CPU by `.to()` inside a GPU model; it runs.
Stand-in: the DenoisingAutoEncoderFeaturizer reduced to the swap noise plus a linear encoder; the
meta device stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class SwapNoiseCorrupter(nn.Module):
    """Apply swap noise on the input data.

    Each data point has specified chance be replaced by a random value from the same column.
    """

    def __init__(self, probas):
        super().__init__()
        self.probas = torch.from_numpy(np.array(probas))

    def forward(self, x):
        should_swap = torch.bernoulli(self.probas.to(x.device) * torch.ones(x.shape).to(x.device))
        corrupted_x = torch.where(should_swap == 1, x[torch.randperm(x.shape[0])], x)
        mask = (corrupted_x != x).float()
        return corrupted_x, mask

class DenoisingAutoEncoderFeaturizer(nn.Module):
    def __init__(self, n_features, hidden=32, noise=0.15):
        super().__init__()
        self.swap_noise = SwapNoiseCorrupter([noise] * n_features)
        self.encoder = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU())

    def forward(self, x, perturb=True):
        mask = None
        if perturb:
            with torch.no_grad():
                x, mask = self.swap_noise(x)
        return self.encoder(x), mask

device = torch.device("meta")                    # "cuda" in a real run
featurizer = DenoisingAutoEncoderFeaturizer(n_features=10).to(device)
x = torch.randn(256, 10, device=device)
'''
CELL = '''
z, mask = featurizer(x, perturb=True)
swap_rate = mask.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
