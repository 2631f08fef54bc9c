"""Look-alike: mbrl-lib's Normalizer keeps mean/std on the model device and converts numpy inputs itself.

Source: https://github.com/facebookresearch/mbrl-lib/blob/main/mbrl/util/math.py
`Normalizer.__init__` creates `self.mean`/`self.std` with `device=device`; `normalize(val)` turns a
numpy array into a tensor on `self.device` before subtracting, so the PETS/MBPO loop can pass the
environment's numpy observation/action batch straight to a dynamics model on the GPU. Stand-ins: a
OneDTransitionRewardModel-like wrapper (obs/action concatenation, normaliser, Linear ensemble
member) instead of mbrl-lib's GaussianMLP ensemble.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Normalizer:
    _STD_EPS = 1e-12

    def __init__(self, in_size, device, dtype=torch.float32):
        self.mean = torch.zeros((1, in_size), device=device, dtype=dtype)
        self.std = torch.ones((1, in_size), device=device, dtype=dtype)
        self.eps = 1e-12 if dtype == torch.double else 1e-5
        self.device = device

    def normalize(self, val):
        if isinstance(val, np.ndarray):
            val = torch.from_numpy(val).to(self.device)
        return (val - self.mean) / self.std

class OneDTransitionRewardModel(nn.Module):
    def __init__(self, obs_size, action_size, device):
        super().__init__()
        self.device = torch.device(device)
        self.input_normalizer = Normalizer(obs_size + action_size, self.device)
        self.model = nn.Sequential(nn.Linear(obs_size + action_size, 64), nn.SiLU(), nn.Linear(64, obs_size + 1)).to(self.device)

    def _get_model_input(self, obs, action):
        model_in = np.concatenate([obs, action], axis=obs.ndim - 1).astype(np.float32)
        return self.input_normalizer.normalize(model_in).float()

    def forward(self, obs, action):
        return self.model(self._get_model_input(obs, action))

dynamics_model = OneDTransitionRewardModel(obs_size=17, action_size=6, device="cuda:0")
obs = np.random.randn(32, 17)
action = np.random.uniform(-1, 1, size=(32, 6))
'''
CELL = '''
with torch.no_grad():
    pred = dynamics_model(obs, action)
next_obs_delta, pred_reward = pred[..., :-1], pred[..., -1:]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
