"""cleanrl DDPG on Hopper: the replay buffer keeps MuJoCo's float64 observation dtype, so the sampled batch is float64.

Source: https://github.com/vwxyzjn/cleanrl/pull/113
"The current DDPG SAC TD3 files are not compatible with mujoco envs": `ddpg_continuous_action.py
--gym-id Hopper-v2` ran the random-action warm-up, then failed at the first update in
`target_actor.forward(data.next_observations)` -> `self.fc1(x)` (expected scalar type Float but
found Double). The SB3 ReplayBuffer allocates its arrays with the observation space's dtype
(float64 for MuJoCo) and `to_torch` keeps it; the networks are float32. Stand-ins: a minimal
ReplayBuffer returning a ReplayBufferSamples namedtuple and cleanrl's Actor / QNetwork.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from typing import NamedTuple
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class ReplayBufferSamples(NamedTuple):
    observations: torch.Tensor
    actions: torch.Tensor
    next_observations: torch.Tensor
    dones: torch.Tensor
    rewards: torch.Tensor

class ReplayBuffer:
    def __init__(self, buffer_size, obs_shape, obs_dtype, action_dim):
        self.observations = np.zeros((buffer_size, *obs_shape), dtype=obs_dtype)
        self.next_observations = np.zeros((buffer_size, *obs_shape), dtype=obs_dtype)
        self.actions = np.zeros((buffer_size, action_dim), dtype=np.float32)
        self.rewards = np.zeros((buffer_size, 1), dtype=np.float32)
        self.dones = np.zeros((buffer_size, 1), dtype=np.float32)
        self.pos, self.buffer_size = 0, buffer_size
    def add(self, obs, next_obs, action, reward, done):
        self.observations[self.pos], self.next_observations[self.pos] = obs, next_obs
        self.actions[self.pos], self.rewards[self.pos], self.dones[self.pos] = action, reward, done
        self.pos = (self.pos + 1) % self.buffer_size
    def sample(self, batch_size):
        idx = np.random.randint(0, max(self.pos, 1), size=batch_size)
        to_torch = torch.as_tensor
        return ReplayBufferSamples(to_torch(self.observations[idx]), to_torch(self.actions[idx]),
                                   to_torch(self.next_observations[idx]), to_torch(self.dones[idx]), to_torch(self.rewards[idx]))

class QNetwork(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim + act_dim, 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc3 = nn.Linear(256, 1)
    def forward(self, x, a):
        x = torch.cat([x, a], 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc_mu = nn.Linear(256, act_dim)
    def forward(self, x):
        return torch.tanh(self.fc_mu(F.relu(self.fc2(F.relu(self.fc1(x))))))

obs_dim, act_dim = 11, 3                                   # Hopper-v2
rb = ReplayBuffer(1000, (obs_dim,), np.float64, act_dim)   # env.observation_space.dtype == float64
for _ in range(200):
    rb.add(np.random.randn(obs_dim), np.random.randn(obs_dim), np.random.uniform(-1, 1, act_dim), 1.0, 0.0)
actor, target_actor = Actor(obs_dim, act_dim), Actor(obs_dim, act_dim)
qf1, qf1_target = QNetwork(obs_dim, act_dim), QNetwork(obs_dim, act_dim)
gamma = 0.99
data = rb.sample(256)
'''
CELL = '''
with torch.no_grad():
    next_state_actions = (target_actor.forward(data.next_observations)).clamp(-1.0, 1.0)
    qf1_next_target = qf1_target.forward(data.next_observations, next_state_actions)
    next_q_value = data.rewards.flatten() + (1 - data.dones.flatten()) * gamma * (qf1_next_target).view(-1)
qf1_a_values = qf1.forward(data.observations, data.actions).view(-1)
qf1_loss = F.mse_loss(qf1_a_values, next_q_value)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["data.next_observations"]
FIX = "namespace"
REFERENCE_FIX = '''
data = data._replace(observations=data.observations.float(), next_observations=data.next_observations.float())
'''
REFERENCE_EDIT = None
CLEAN = False
