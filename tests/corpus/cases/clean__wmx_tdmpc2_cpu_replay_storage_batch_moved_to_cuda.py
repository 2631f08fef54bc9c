"""Look-alike: TD-MPC2 keeps its replay storage in CPU memory and moves each sampled batch to cuda:0.

Source: https://github.com/nicklashansen/tdmpc2/blob/main/tdmpc2/common/buffer.py
`Buffer._init` picks `storage_device = 'cuda:0' if 2.5*total_bytes < mem_free else 'cpu'`, so large
buffers live on the CPU beside a GPU world model; `_prepare_batch` moves `obs`, `action`, `reward`
with `.to(self._device, non_blocking=True)` before the update. Stand-ins: a plain dict of CPU
tensors instead of torchrl's LazyTensorStorage/SliceSampler, and a TD-MPC2-shaped world model
(encoder, latent dynamics, reward head) of Linear layers; the `[1:]` shift is done before the move.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Buffer():
    def __init__(self, horizon, batch_size):
        self._device = torch.device('cuda:0')
        self._storage_device = torch.device('cpu')      # "Using CPU memory for storage."
        self.horizon, self.batch_size = horizon, batch_size
        self._storage = {
            "obs": torch.randn(horizon + 1, batch_size, 24, device=self._storage_device),
            "action": torch.rand(horizon + 1, batch_size, 6, device=self._storage_device) * 2 - 1,
            "reward": torch.randn(horizon + 1, batch_size, device=self._storage_device),
        }

    def _prepare_batch(self, td):
        td = {k: v.to(self._device, non_blocking=True) for k, v in td.items()}
        return td["obs"].contiguous(), td["action"].contiguous(), td["reward"].unsqueeze(-1).contiguous()

    def sample(self):
        td = {"obs": self._storage["obs"],
              "action": self._storage["action"][1:],
              "reward": self._storage["reward"][1:]}
        return self._prepare_batch(td)

class WorldModel(nn.Module):
    def __init__(self, obs_dim=24, action_dim=6, latent_dim=32):
        super().__init__()
        self._encoder = nn.Sequential(nn.Linear(obs_dim, 64), nn.Mish(), nn.Linear(64, latent_dim))
        self._dynamics = nn.Sequential(nn.Linear(latent_dim + action_dim, 64), nn.Mish(), nn.Linear(64, latent_dim))
        self._reward = nn.Sequential(nn.Linear(latent_dim + action_dim, 64), nn.Mish(), nn.Linear(64, 1))

    def encode(self, obs):
        return self._encoder(obs)

    def next(self, z, a):
        return self._dynamics(torch.cat([z, a], dim=-1))

    def reward(self, z, a):
        return self._reward(torch.cat([z, a], dim=-1))

buffer = Buffer(horizon=3, batch_size=16)
model = WorldModel().to(torch.device('cuda:0'))
'''
CELL = '''
obs, action, reward = buffer.sample()
next_z = model.encode(obs)
z = next_z.mean(dim=0)
consistency_loss = 0
for t in range(3):
    z = model.next(z, action.mean(dim=0))
    consistency_loss = consistency_loss + ((z - next_z.mean(dim=0)) ** 2).mean()
reward_loss = ((model.reward(z, action.mean(dim=0)) - reward.mean(dim=0)) ** 2).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
