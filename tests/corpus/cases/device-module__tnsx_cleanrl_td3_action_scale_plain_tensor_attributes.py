"""CleanRL TD3 actor rescales actions with `self.action_scale = torch.FloatTensor(...)`: `actor.to(device)` leaves both on the CPU.

Source: https://github.com/vwxyzjn/cleanrl/pull/211
"Td3 ddpg action bound fix": the first revision added action rescaling to the TD3/DDPG Actor as plain
tensor attributes, `self.action_scale = torch.FloatTensor((env.action_space.high - env.action_space.low) / 2.0)`
and `self.action_bias = ...`, used in `forward` as `x * self.action_scale + self.action_bias`. Plain
attributes are not moved by `Actor(envs).to(device)`; the PR's follow-up commits ("action scale and
bias move to GPU if needs be", then "finally using register_buffer") register both as buffers.
Stand-in: a one-env gym SyncVectorEnv with Box spaces (Pendulum-like); the Actor is the script's own.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Box:
    """gym.spaces.Box, reduced."""
    def __init__(self, low, high, shape):
        self.low = np.full(shape, low, dtype=np.float32)
        self.high = np.full(shape, high, dtype=np.float32)
        self.shape = shape

class SyncVectorEnv:
    """gym.vector.SyncVectorEnv([make_env("Pendulum-v1", ...)]), reduced to its spaces."""
    def __init__(self, num_envs=1):
        self.num_envs = num_envs
        self.single_observation_space = Box(-8.0, 8.0, (3,))
        self.single_action_space = Box(-2.0, 2.0, (1,))
        self.action_space = Box(-2.0, 2.0, (num_envs, 1))
    def reset(self):
        return np.random.uniform(-1, 1, (self.num_envs, 3)).astype(np.float32)

class Actor(nn.Module):
    def __init__(self, env):
        super().__init__()
        self.fc1 = nn.Linear(np.array(env.single_observation_space.shape).prod(), 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc_mu = nn.Linear(256, np.prod(env.single_action_space.shape))
        # action rescaling
        self.action_scale = torch.FloatTensor((env.action_space.high - env.action_space.low) / 2.0)
        self.action_bias = torch.FloatTensor((env.action_space.high + env.action_space.low) / 2.0)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = torch.tanh(self.fc_mu(x))
        return x * self.action_scale + self.action_bias

device = torch.device("cuda:0")
envs = SyncVectorEnv(1)
actor = Actor(envs).to(device)
target_actor = Actor(envs).to(device)
obs = envs.reset()
'''
CELL = '''
with torch.no_grad():
    actions = actor(torch.Tensor(obs).to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actor.action_scale", "actor.action_bias"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.action_scale = torch.FloatTensor((env.action_space.high - env.action_space.low) / 2.0)\n"
    "        self.action_bias = torch.FloatTensor((env.action_space.high + env.action_space.low) / 2.0)\n",
    "        self.register_buffer(\"action_scale\", torch.FloatTensor((env.action_space.high - env.action_space.low) / 2.0))\n"
    "        self.register_buffer(\"action_bias\", torch.FloatTensor((env.action_space.high + env.action_space.low) / 2.0))\n",
)
CLEAN = False
