"""Stable-Baselines3 SAC on an env with a float64 Box action space: replayed actions reach the critic as float64.

Source: https://github.com/DLR-RM/stable-baselines3/issues/1145
"SAC crashes when float64 action is used" (found with envpool's HalfCheetah): the traceback ends in
`current_q_values = self.critic(replay_data.observations, replay_data.actions)`. Observations are
cast by `preprocess_obs` (`obs.float()`), actions are not: the ReplayBuffer stores them with the
action space's dtype, the critic concatenates float32 features with float64 actions and its
float32 Q-network rejects the result. Fixed in PR #1572 by storing actions as float32 in the
ReplayBuffer. Stand-in: ReplayBuffer, the SAC actor/critic and the critic half of `SAC.train`,
reduced (no target entropy tuning, no target network update).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from collections import namedtuple
import numpy as np
import torch as th
import torch.nn as nn
import torch.nn.functional as F

ReplayBufferSamples = namedtuple("ReplayBufferSamples", "observations actions next_observations dones rewards")

class Box:
    def __init__(self, low, high, shape, dtype=np.float32):
        self.low, self.high, self.shape, self.dtype = low, high, shape, np.dtype(dtype)

class ReplayBuffer:
    def __init__(self, buffer_size, observation_space, action_space, n_envs=1):
        self.buffer_size, self.pos, self.full = buffer_size, 0, False
        self.obs_shape, self.action_dim = observation_space.shape, int(np.prod(action_space.shape))
        self.observations = np.zeros((buffer_size, n_envs, *self.obs_shape), dtype=observation_space.dtype)
        self.next_observations = np.zeros((buffer_size, n_envs, *self.obs_shape), dtype=observation_space.dtype)
        self.actions = np.zeros((buffer_size, n_envs, self.action_dim), dtype=action_space.dtype)
        self.rewards = np.zeros((buffer_size, n_envs), dtype=np.float32)
        self.dones = np.zeros((buffer_size, n_envs), dtype=np.float32)

    def add(self, obs, next_obs, action, reward, done):
        self.observations[self.pos] = np.array(obs)
        self.next_observations[self.pos] = np.array(next_obs)
        self.actions[self.pos] = np.array(action)
        self.rewards[self.pos] = np.array(reward)
        self.dones[self.pos] = np.array(done)
        self.pos += 1

    def sample(self, batch_size):
        batch_inds = np.random.randint(0, self.pos, size=batch_size)
        data = (self.observations[batch_inds, 0, :], self.actions[batch_inds, 0, :],
                self.next_observations[batch_inds, 0, :], self.dones[batch_inds, 0].reshape(-1, 1),
                self.rewards[batch_inds, 0].reshape(-1, 1))
        return ReplayBufferSamples(*tuple(map(th.tensor, data)))

def preprocess_obs(obs):
    return obs.float()                                   # Box observations

class Actor(nn.Module):
    def __init__(self, obs_dim, action_dim, net_arch=64):
        super().__init__()
        self.latent_pi = nn.Sequential(nn.Linear(obs_dim, net_arch), nn.ReLU())
        self.mu = nn.Linear(net_arch, action_dim)
        self.log_std = nn.Linear(net_arch, action_dim)

    def action_log_prob(self, obs):
        latent = self.latent_pi(preprocess_obs(obs))
        mean, log_std = self.mu(latent), self.log_std(latent).clamp(-20, 2)
        dist = th.distributions.Normal(mean, log_std.exp())
        gaussian_actions = dist.rsample()
        actions = th.tanh(gaussian_actions)
        log_prob = dist.log_prob(gaussian_actions).sum(-1) - th.log(1 - actions ** 2 + 1e-6).sum(-1)
        return actions, log_prob

class ContinuousCritic(nn.Module):
    def __init__(self, obs_dim, action_dim, net_arch=64, n_critics=2):
        super().__init__()
        self.q_networks = nn.ModuleList([
            nn.Sequential(nn.Linear(obs_dim + action_dim, net_arch), nn.ReLU(), nn.Linear(net_arch, 1))
            for _ in range(n_critics)])

    def forward(self, obs, actions):
        features = preprocess_obs(obs)
        qvalue_input = th.cat([features, actions], dim=1)
        return tuple(q_net(qvalue_input) for q_net in self.q_networks)

class SAC:
    def __init__(self, observation_space, action_space, buffer_size=1000, gamma=0.99):
        obs_dim, action_dim = observation_space.shape[0], action_space.shape[0]
        self.actor = Actor(obs_dim, action_dim)
        self.critic = ContinuousCritic(obs_dim, action_dim)
        self.critic_target = ContinuousCritic(obs_dim, action_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.critic_optimizer = th.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.replay_buffer = ReplayBuffer(buffer_size, observation_space, action_space)
        self.gamma, self.ent_coef = gamma, 0.2

    def train(self, gradient_steps, batch_size=64):
        for gradient_step in range(gradient_steps):
            replay_data = self.replay_buffer.sample(batch_size)
            with th.no_grad():
                next_actions, next_log_prob = self.actor.action_log_prob(replay_data.next_observations)
                next_q_values = th.cat(self.critic_target(replay_data.next_observations, next_actions), dim=1)
                next_q_values, _ = th.min(next_q_values, dim=1, keepdim=True)
                next_q_values = next_q_values - self.ent_coef * next_log_prob.reshape(-1, 1)
                target_q_values = replay_data.rewards + (1 - replay_data.dones) * self.gamma * next_q_values
            current_q_values = self.critic(replay_data.observations, replay_data.actions)
            critic_loss = 0.5 * sum(F.mse_loss(current_q, target_q_values) for current_q in current_q_values)
            self.critic_optimizer.zero_grad()
            critic_loss.backward()
            self.critic_optimizer.step()

# envpool HalfCheetah-v3: float64 observation and action spaces
observation_space = Box(-np.inf, np.inf, (17,), dtype=np.float64)
action_space = Box(-1.0, 1.0, (6,), dtype=np.float64)
model = SAC(observation_space, action_space)
rng = np.random.default_rng(0)
obs = rng.standard_normal((1, 17))
for _ in range(200):
    action = rng.uniform(-1, 1, (1, 6))
    next_obs = rng.standard_normal((1, 17))
    model.replay_buffer.add(obs, next_obs, action, rng.standard_normal(1), np.zeros(1))
    obs = next_obs
'''
CELL = '''
model.train(gradient_steps=1, batch_size=64)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type Float but found Double",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.replay_buffer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.actions = np.zeros((buffer_size, n_envs, self.action_dim), dtype=action_space.dtype)",
                  "self.actions = np.zeros((buffer_size, n_envs, self.action_dim), dtype=np.float32)")
CLEAN = False
