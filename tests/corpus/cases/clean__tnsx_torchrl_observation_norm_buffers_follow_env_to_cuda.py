"""Look-alike: TorchRL ObservationNorm keeps `loc`/`scale` as registered buffers, so `env.to("cuda")` moves them with the env.

Source: https://github.com/pytorch/rl/blob/ae9719f17b1517af5c2523a36c4616f003ee55cf/torchrl/envs/transforms/_normalization.py
`ObservationNorm.__init__` ends with `self.register_buffer("loc", loc)` and
`self.register_buffer("scale", scale)`; `_apply_transform` computes `(obs - loc) / scale`. Statistics
built on the CPU from the env's spec, then the whole env moved to the GPU: the buffers follow, so
nothing to report. Stand-ins: TensorDict, a CartPole-like GymEnv, TransformedEnv, and ObservationNorm
reduced to the standard-normal path (`standard_normal` kept as a Python bool here; torchrl stores
it as a bool buffer).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TensorDict:
    """tensordict.TensorDict, reduced."""
    def __init__(self, source, batch_size=()):
        self._tensordict = dict(source)
        self.batch_size = torch.Size(batch_size)
    def __getitem__(self, key):
        return self._tensordict[key]
    def __setitem__(self, key, value):
        self._tensordict[key] = value

class Transform(nn.Module):
    """torchrl.envs.transforms.Transform, reduced."""
    def __init__(self, in_keys):
        super().__init__()
        self.in_keys = list(in_keys)
    def forward(self, tensordict):
        for k in self.in_keys:
            tensordict[k] = self._apply_transform(tensordict[k])
        return tensordict

class ObservationNorm(Transform):
    """torchrl.envs.transforms.ObservationNorm, reduced."""
    def __init__(self, loc, scale, in_keys, standard_normal=False, eps=1e-6):
        super().__init__(in_keys)
        self.standard_normal = standard_normal
        self.eps = eps
        self.register_buffer("loc", loc)
        self.register_buffer("scale", scale.clamp_min(eps))
    def _apply_transform(self, obs):
        if self.standard_normal:
            return (obs - self.loc) / self.scale
        return obs * self.scale + self.loc

class GymEnv:
    """torchrl.envs.GymEnv("CartPole-v1"), reduced."""
    def __init__(self, env_name, device="cpu"):
        self.env_name = env_name
        self.device = torch.device(device)
    def reset(self):
        return TensorDict({"observation": torch.randn(4, device=self.device)})
    def to(self, device):
        self.device = torch.device(device)
        return self

class TransformedEnv:
    """torchrl.envs.TransformedEnv, reduced."""
    def __init__(self, base_env, transform):
        self.base_env = base_env
        self.transform = transform
    def to(self, device):
        self.base_env.to(device)
        self.transform.to(device)
        return self
    def reset(self):
        return self.transform(self.base_env.reset())

device = torch.device("cuda:0")
obs_norm = ObservationNorm(loc=torch.zeros(4), scale=torch.ones(4) * 2.0,
                           in_keys=["observation"], standard_normal=True)
env = TransformedEnv(GymEnv("CartPole-v1"), obs_norm)
env = env.to(device)
'''
CELL = '''
td = env.reset()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
