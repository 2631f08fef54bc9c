"""ML-Agents with `--torch-device cuda:1`: networks go to cuda:1 but tensors built from NumPy observations land on the default `cuda` (cuda:0).

Source: https://github.com/Unity-Technologies/ml-agents/pull/6243
"Fix: data on both cuda:0 and cuda:1 when using --torch-device cuda:1. Solves: RuntimeError: Expected
all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when
checking argument for argument mat1 in method wrapper_CUDA_addmm)". `set_torch_config` stores
`_device = torch.device("cuda:1")` and moves the networks with `.to(default_device())`, but calls
`torch.set_default_device(_device.type)`, i.e. plain "cuda" (the current device, cuda:0), so
`ModelUtils.list_to_tensor(...)` creates observation tensors on cuda:0. Stand-ins: the torch_utils
module functions, ModelUtils.list_to_tensor and a small actor network; the simulator cannot resolve a
bare "cuda", so the stand-in spells out the current device `torch.device("cuda", 0)` it resolves to.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
from torch import nn
from types import SimpleNamespace

_device = torch.device("cpu")

def set_torch_config(torch_settings):
    global _device
    device_str = torch_settings.device or "cuda"
    _device = torch.device(device_str)
    if _device.type == "cuda":
        torch.set_default_device(torch.device(_device.type, 0))   # set_default_device(_device.type): "cuda" is the current device, cuda:0
        torch.set_default_dtype(torch.float32)

def default_device():
    return _device

class ModelUtils:
    @staticmethod
    def list_to_tensor(ndarray_list, dtype=torch.float32):
        return torch.as_tensor(np.asanyarray(ndarray_list), dtype=dtype)

class SimpleActor(nn.Module):
    def __init__(self, obs_size, act_size, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.mu = nn.Linear(hidden, act_size)
    def forward(self, obs):
        return torch.tanh(self.mu(self.body(obs)))

actor = SimpleActor(obs_size=8, act_size=2)
set_torch_config(SimpleNamespace(device="cuda:1"))       # mlagents-learn ... --torch-device cuda:1
actor = actor.to(default_device())
decision_obs = [np.random.rand(8).astype(np.float32) for _ in range(12)]   # DecisionSteps.obs from Unity
'''
CELL = '''
obs = ModelUtils.list_to_tensor(decision_obs)
action = actor(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["obs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.set_default_device(torch.device(_device.type, 0))", "torch.set_default_device(_device)")
CLEAN = False
