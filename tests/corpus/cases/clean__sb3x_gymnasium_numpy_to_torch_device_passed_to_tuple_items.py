"""Look-alike: Gymnasium's `NumpyToTorch(env, device=...)` hands a GPU policy observations already on its device.

Source: https://github.com/Farama-Foundation/Gymnasium/blob/main/gymnasium/wrappers/numpy_to_torch.py
(`NumpyToTorch.reset`/`step` call `numpy_to_torch(..., self.device)`; `_numpy_to_torch` does
`torch.tensor(value).to(device=device)` and, since gymnasium PR #1107, `_numpy_iterable_to_torch`
passes `device` on to each item of the `(obs, info)` tuple). The environment itself stays a NumPy
CartPole on the host; the observation the policy sees is on cuda. Nothing to report. Stand-in: the
converters and wrapper reduced, a numpy CartPole-shaped env, a small policy on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import functools
import numbers
from collections import abc
import numpy as np
import torch
import torch.nn as nn

@functools.singledispatch
def torch_to_numpy(value):
    raise Exception(f"No known conversion for Torch type ({type(value)}) to NumPy registered.")

@torch_to_numpy.register(numbers.Number)
@torch_to_numpy.register(torch.Tensor)
def _number_torch_to_numpy(value):
    return np.array(value)

@functools.singledispatch
def numpy_to_torch(value, device=None):
    raise Exception(f"No known conversion for NumPy type ({type(value)}) to PyTorch registered.")

@numpy_to_torch.register(numbers.Number)
@numpy_to_torch.register(np.ndarray)
def _numpy_to_torch(value, device=None):
    tensor = torch.tensor(value)
    if device:
        return tensor.to(device=device)
    return tensor

@numpy_to_torch.register(abc.Mapping)
def _numpy_mapping_to_torch(value, device=None):
    return type(value)(**{k: numpy_to_torch(v, device) for k, v in value.items()})

@numpy_to_torch.register(abc.Iterable)
def _numpy_iterable_to_torch(value, device=None):
    if hasattr(value, "_make"):
        return type(value)._make(numpy_to_torch(v, device) for v in value)
    else:
        return type(value)(numpy_to_torch(v, device) for v in value)

class CartPoleEnv:
    """Numpy CartPole stand-in: float32 observations of shape (4,)."""
    def __init__(self):
        self._rng = np.random.default_rng(0)
        self.state = np.zeros(4, dtype=np.float32)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self._rng.uniform(-0.05, 0.05, size=(4,)).astype(np.float32)
        return self.state.copy(), {}

    def step(self, action):
        self.state = (self.state + 0.01).astype(np.float32)
        return self.state.copy(), 1.0, False, False, {}

class NumpyToTorch:
    """gymnasium.wrappers.NumpyToTorch: a NumPy env seen through PyTorch tensors on `device`."""
    def __init__(self, env, device=None):
        self.env = env
        self.device = device

    def step(self, action):
        jax_action = torch_to_numpy(action)
        obs, reward, terminated, truncated, info = self.env.step(jax_action)
        return (numpy_to_torch(obs, self.device), float(reward), bool(terminated), bool(truncated),
                numpy_to_torch(info, self.device))

    def reset(self, *, seed=None, options=None):
        if options:
            options = torch_to_numpy(options)
        return numpy_to_torch(self.env.reset(seed=seed, options=options), self.device)

device = torch.device("cuda:0")
env = NumpyToTorch(CartPoleEnv(), device=device)
policy = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 2)).to(device)
'''
CELL = '''
obs, info = env.reset(seed=42)
logits = policy(obs.unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
