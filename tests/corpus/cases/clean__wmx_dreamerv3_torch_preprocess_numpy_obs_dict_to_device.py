"""Look-alike: dreamerv3-torch's WorldModel.preprocess turns the env's numpy observation dict into device tensors.

Source: https://github.com/NM512/dreamerv3-torch/blob/main/models.py
The simulator hands the agent a dict of numpy arrays (uint8 `image`, float `is_first`,
`is_terminal`, ...); `WorldModel.preprocess` converts every entry with `torch.tensor(v,
device=self._config.device, dtype=torch.float32)`, scales the image by 1/255 and derives `cont`,
so nothing reaches the CUDA encoder from the CPU. Stand-ins: a two-layer conv encoder and a Linear
posterior head in place of the ConvEncoder and RSSM; the config is a SimpleNamespace.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from types import SimpleNamespace

class WorldModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self._config = config
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 4, stride=2), nn.ELU(), nn.Conv2d(8, 16, 4, stride=2), nn.ELU(), nn.Flatten())
        self.post = nn.Linear(16 * 6 * 6 + 1, 32)

    def preprocess(self, obs):
        obs = {k: torch.tensor(v, device=self._config.device, dtype=torch.float32) for k, v in obs.items()}
        obs["image"] = obs["image"] / 255.0
        obs["cont"] = (1.0 - obs["is_terminal"]).unsqueeze(-1)
        return obs

    def embed(self, data):
        image = data["image"].permute(0, 3, 1, 2)          # B, H, W, C -> B, C, H, W
        return self.post(torch.cat([self.encoder(image), data["cont"]], dim=-1))

config = SimpleNamespace(device="cuda:0")
wm = WorldModel(config).to(config.device)
obs = {
    "image": np.random.randint(0, 255, size=(4, 32, 32, 3), dtype=np.uint8),
    "is_first": np.zeros(4, dtype=bool),
    "is_terminal": np.zeros(4, dtype=bool),
}
'''
CELL = '''
data = wm.preprocess(obs)
with torch.no_grad():
    embed = wm.embed(data)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
