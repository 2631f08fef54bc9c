"""TorchRL SyncDataCollector with `device="cuda"` and a CPU env: the init probe feeds the env's CPU tensordict to the GPU policy.

Source: https://github.com/pytorch/rl/pull/765
"[BugFix] SyncDataCollector init when device and env_device are different": in `__init__` the
collector runs the policy once on `env.fake_tensordict()` to find the output keys; that tensordict
is on the environment device, so with the policy on another device the call raises a RuntimeError.
The fix moves it to `self.device` before the policy and back to `self.env_device` after. Stand-ins:
TensorDict, a Pendulum-like GymEnv, TensorDictModule, and SyncDataCollector reduced to `__init__`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TensorDict:
    """tensordict.TensorDict, reduced."""
    def __init__(self, source, batch_size=(), device=None):
        self._tensordict = dict(source)
        self.batch_size = torch.Size(batch_size)
        self.device = device
    def __getitem__(self, key):
        return self._tensordict[key]
    def set(self, key, value):
        self._tensordict[key] = value
        return self
    def to(self, device):
        return TensorDict({k: v.to(device) for k, v in self._tensordict.items()}, self.batch_size, torch.device(device))

class GymEnv:
    """torchrl.envs.GymEnv("Pendulum-v1"), reduced: specs and fake tensordict on `self.device`."""
    def __init__(self, env_name, device="cpu"):
        self.env_name = env_name
        self.device = torch.device(device)
        self.batch_size = torch.Size([])
    def fake_tensordict(self):
        return TensorDict({"observation": torch.zeros(3, device=self.device),
                           "action": torch.zeros(1, device=self.device)}, device=self.device)

class TensorDictModule(nn.Module):
    """tensordict.nn.TensorDictModule, reduced."""
    def __init__(self, module, in_keys, out_keys):
        super().__init__()
        self.module = module
        self.in_keys = in_keys
        self.out_keys = out_keys
    def forward(self, tensordict):
        out = self.module(*[tensordict[k] for k in self.in_keys])
        return tensordict.set(self.out_keys[0], out)

class SyncDataCollector:
    """torchrl.collectors.SyncDataCollector (v0.0.3), reduced to __init__'s policy probe."""
    def __init__(self, create_env_fn, policy, frames_per_batch, total_frames, device=None, passing_device=None):
        self.env = create_env_fn() if callable(create_env_fn) else create_env_fn
        self.env_device = self.env.device
        self.device = torch.device(device) if device is not None else self.env_device
        self.passing_device = torch.device(passing_device) if passing_device is not None else self.device
        self.policy = policy.to(self.device)
        self.frames_per_batch = frames_per_batch
        self.total_frames = total_frames
        # the policy is run once to know which keys it writes
        with torch.no_grad():
            self._tensordict_out = self.env.fake_tensordict()
            self._tensordict_out = self.policy(self._tensordict_out)

env = GymEnv("Pendulum-v1")
actor_net = nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 1))
policy = TensorDictModule(actor_net, in_keys=["observation"], out_keys=["action"])
'''
CELL = '''
collector = SyncDataCollector(
    env,
    policy,
    frames_per_batch=200,
    total_frames=10_000,
    device="cuda:0",
    passing_device="cpu",
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["SyncDataCollector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self._tensordict_out = self.policy(self._tensordict_out)",
    "self._tensordict_out = self.policy(self._tensordict_out.to(self.device)).to(self.env_device)",
)
CLEAN = False
