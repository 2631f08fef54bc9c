"""Look-alike: CleanRL PPO on a MuJoCo task gets float64 observations and wraps them in `torch.Tensor(...)`, which makes float32.

Source: https://github.com/vwxyzjn/cleanrl/blob/master/cleanrl/ppo_continuous_action.py
MuJoCo environments return float64 arrays; the script converts them with
`next_obs = torch.Tensor(next_obs).to(device)` (the legacy constructor always builds the default
float32 dtype) before `agent.get_action_and_value(next_obs)`. A float64 array next to float32
weights, cast on purpose: nothing to report. Stand-in: the vector env reduced to its spaces and a
float64 observation batch; the Agent is the script's own (orthogonal init left out).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

class Box:
    def __init__(self, shape):
        self.shape = shape

class SyncVectorEnv:
    """gym.vector.SyncVectorEnv([make_env("HalfCheetah-v4", ...)]) x 4, reduced."""
    num_envs = 4
    single_observation_space = Box((17,))
    single_action_space = Box((6,))
    def reset(self, seed=None):
        return np.random.randn(self.num_envs, 17), {}      # float64, as MuJoCo returns

class Agent(nn.Module):
    def __init__(self, envs):
        super().__init__()
        self.critic = nn.Sequential(
            nn.Linear(np.array(envs.single_observation_space.shape).prod(), 64),
            nn.Tanh(),
            nn.Linear(64, 64),
            nn.Tanh(),
            nn.Linear(64, 1),
        )
        self.actor_mean = nn.Sequential(
            nn.Linear(np.array(envs.single_observation_space.shape).prod(), 64),
            nn.Tanh(),
            nn.Linear(64, 64),
            nn.Tanh(),
            nn.Linear(64, np.prod(envs.single_action_space.shape)),
        )
        self.actor_logstd = nn.Parameter(torch.zeros(1, np.prod(envs.single_action_space.shape)))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        action_mean = self.actor_mean(x)
        action_logstd = self.actor_logstd.expand_as(action_mean)
        action_std = torch.exp(action_logstd)
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)

device = torch.device("cpu")
envs = SyncVectorEnv()
agent = Agent(envs).to(device)
next_obs, _ = envs.reset(seed=1)
'''
CELL = '''
next_obs = torch.Tensor(next_obs).to(device)
with torch.no_grad():
    action, logprob, _, value = agent.get_action_and_value(next_obs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
