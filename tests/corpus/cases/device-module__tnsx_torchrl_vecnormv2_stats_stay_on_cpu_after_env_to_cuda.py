"""TorchRL VecNormV2 on an env moved with `env.to("cuda")`: the running statistics stay on the CPU.

Source: https://github.com/pytorch/rl/pull/3364
"Fix VecNormV2 GPU device handling for stateful mode": with `env.append_transform(VecNormV2(in_keys=
["observation"]))` followed by `env.to("cuda")`, collecting crashed with "Expected all tensors to be
on the same device, cuda:0 and cpu!". In stateful mode the statistics `_loc`, `_var`, `_count` are
TensorDicts held as plain attributes, not registered buffers, so `Module.to()` never moves them; the
PR adds an `_apply` override that moves them. Stand-ins: a minimal TensorDict (a tensor container
with `.to()`), a CartPole-like GymEnv, TransformedEnv and VecNormV2 reduced to the stateful path.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class TensorDict:
    """tensordict.TensorDict, reduced: named tensors kept in `_tensordict`, moved by `.to()`."""
    def __init__(self, source, batch_size=()):
        self._tensordict = dict(source)
        self.batch_size = torch.Size(batch_size)
    def __getitem__(self, key):
        return self._tensordict[key]
    def __setitem__(self, key, value):
        self._tensordict[key] = value
    def keys(self):
        return self._tensordict.keys()
    def apply(self, fn):
        return TensorDict({k: fn(v) for k, v in self._tensordict.items()}, self.batch_size)
    def to(self, device):
        return self.apply(lambda t: t.to(device))

class Transform(nn.Module):
    """torchrl.envs.transforms.Transform, reduced."""
    def __init__(self, in_keys):
        super().__init__()
        self.in_keys = list(in_keys)

class VecNormV2(Transform):
    """torchrl.envs.transforms.VecNormV2 (stateful mode), reduced.

    The running statistics are TensorDicts stored as plain attributes (not buffers)."""
    def __init__(self, in_keys, decay=0.9999, eps=1e-4):
        super().__init__(in_keys)
        self.decay = decay
        self.eps = eps
        self.stateful = True
        self._loc = None
        self._var = None
        self._count = None

    def _init_stats(self, observation_spec):
        self._loc = TensorDict({k: torch.zeros(observation_spec[k]["shape"], device=observation_spec[k]["device"])
                                for k in self.in_keys})
        self._var = TensorDict({k: torch.ones(observation_spec[k]["shape"], device=observation_spec[k]["device"])
                                for k in self.in_keys})
        self._count = torch.zeros((), dtype=torch.int64)

    def _stateful_norm(self, data):
        out = {}
        for k in self.in_keys:
            out[k] = (data[k] - self._loc[k]) / self._var[k].sqrt().clamp_min(self.eps)
        return out

    def forward(self, tensordict):
        normed = self._stateful_norm(tensordict)
        for k, v in normed.items():
            tensordict[k] = v
        return tensordict

class GymEnv:
    """torchrl.envs.GymEnv("CartPole-v1"), reduced: 4-dim observations made on `self.device`."""
    def __init__(self, env_name, device="cpu"):
        self.env_name = env_name
        self.device = torch.device(device)
        self.observation_spec = {"observation": {"shape": (4,), "device": self.device}}
    def reset(self):
        return TensorDict({"observation": torch.randn(4, device=self.device)})
    def to(self, device):
        self.device = torch.device(device)
        self.observation_spec = {"observation": {"shape": (4,), "device": self.device}}
        return self
    def append_transform(self, transform):
        return TransformedEnv(self, transform)

class TransformedEnv:
    """torchrl.envs.TransformedEnv, reduced: the transform is initialised from the base env's spec."""
    def __init__(self, base_env, transform):
        self.base_env = base_env
        self.transform = transform
        transform._init_stats(base_env.observation_spec)
    def to(self, device):
        self.base_env.to(device)
        self.transform.to(device)
        return self
    def reset(self):
        return self.transform(self.base_env.reset())

device = torch.device("cuda:0")
vecnorm = VecNormV2(in_keys=["observation"])
env = GymEnv("CartPole-v1")
env = env.append_transform(vecnorm)
env = env.to(device)
'''
CELL = '''
td = env.reset()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["vecnorm._loc", "vecnorm._var"]
FIX = "namespace"
REFERENCE_FIX = '''
vecnorm._loc = vecnorm._loc.to(device)
vecnorm._var = vecnorm._var.to(device)
vecnorm._count = vecnorm._count.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
