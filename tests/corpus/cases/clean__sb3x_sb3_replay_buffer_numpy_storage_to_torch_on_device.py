"""Look-alike: SB3's replay buffer stores transitions as CPU numpy arrays and builds each sampled batch on the policy's device.

Source: https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/common/buffers.py
(`ReplayBuffer.__init__` allocates `np.zeros(...)` arrays; `_get_samples` returns
`ReplayBufferSamples(*tuple(map(self.to_torch, data)))` with `to_torch` = `th.tensor(array,
device=self.device)`) and the TD step of stable_baselines3/dqn/dqn.py `DQN.train`. The buffer's
storage never leaves host memory while `q_net` sits on the GPU; the batch is created on the right
device. Nothing to report. Stand-in: ReplayBuffer and the DQN loss reduced to a CartPole-shaped case.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import namedtuple
import numpy as np
import torch as th
from torch import nn

ReplayBufferSamples = namedtuple("ReplayBufferSamples", "observations actions next_observations dones rewards")

class ReplayBuffer:
    def __init__(self, buffer_size, obs_dim, device="cuda:0", n_envs=1):
        self.buffer_size, self.n_envs, self.pos, self.full = buffer_size, n_envs, 0, False
        self.device = th.device(device)
        self.observations = np.zeros((buffer_size, n_envs, obs_dim), dtype=np.float32)
        self.next_observations = np.zeros((buffer_size, n_envs, obs_dim), dtype=np.float32)
        self.actions = np.zeros((buffer_size, n_envs, 1), dtype=np.int64)        # Discrete action space
        self.rewards = np.zeros((buffer_size, n_envs), dtype=np.float32)
        self.dones = np.zeros((buffer_size, n_envs), dtype=np.float32)

    def add(self, obs, next_obs, action, reward, done):
        self.observations[self.pos] = np.array(obs)
        self.next_observations[self.pos] = np.array(next_obs)
        self.actions[self.pos] = np.array(action).reshape((self.n_envs, 1))
        self.rewards[self.pos] = np.array(reward)
        self.dones[self.pos] = np.array(done)
        self.pos += 1

    def to_torch(self, array, copy=True):
        if copy:
            return th.tensor(array, device=self.device)
        return th.as_tensor(array, device=self.device)

    def sample(self, batch_size):
        batch_inds = np.random.randint(0, self.pos, size=batch_size)
        env_indices = np.random.randint(0, high=self.n_envs, size=(len(batch_inds),))
        data = (self.observations[batch_inds, env_indices, :], self.actions[batch_inds, env_indices, :],
                self.next_observations[batch_inds, env_indices, :],
                self.dones[batch_inds, env_indices].reshape(-1, 1), self.rewards[batch_inds, env_indices].reshape(-1, 1))
        return ReplayBufferSamples(*tuple(map(self.to_torch, data)))

device = th.device("cuda:0")
q_net = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
q_net_target = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
replay_buffer = ReplayBuffer(1000, obs_dim=4, device=device)
rng = np.random.default_rng(0)
for _ in range(200):                                                 # collect_rollouts()
    replay_buffer.add(rng.standard_normal((1, 4)), rng.standard_normal((1, 4)), rng.integers(0, 2, size=1),
                      rng.standard_normal(1), np.zeros(1))
gamma = 0.99
'''
CELL = '''
replay_data = replay_buffer.sample(32)
next_q_values = q_net_target(replay_data.next_observations)
next_q_values, _ = next_q_values.max(dim=1)
next_q_values = next_q_values.reshape(-1, 1)
target_q_values = replay_data.rewards + (1 - replay_data.dones) * gamma * next_q_values
current_q_values = th.gather(q_net(replay_data.observations), dim=1, index=replay_data.actions.long())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
