"""CleanRL's RPO agent: the uniform noise added to the action mean is drawn on the CPU.

Source: https://github.com/vwxyzjn/cleanrl/pull/396
"Fix RuntimeError: Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!" in `rpo_continuous_action.py`. During the update, `get_action_and_value(x, action)`
re-perturbs the mean with `z = torch.FloatTensor(action_mean.shape).uniform_(-rpo_alpha, rpo_alpha)`,
a CPU tensor, and adds it to the CUDA `action_mean`. The merged fix appends `.to(device)` to `z`.
Stand-in: the Agent class reduced to its actor/critic heads; the rollout batch is already on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

class Agent(nn.Module):
    def __init__(self, obs_dim=8, act_dim=2, rpo_alpha=0.5):
        super().__init__()
        self.rpo_alpha = rpo_alpha
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor_mean = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        action_mean = self.actor_mean(x)
        action_logstd = self.actor_logstd.expand_as(action_mean)
        action_std = torch.exp(action_logstd)
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        else:  # new to RPO
            z = torch.FloatTensor(action_mean.shape).uniform_(-self.rpo_alpha, self.rpo_alpha)
            action_mean = action_mean + z
            probs = Normal(action_mean, action_std)
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)

torch.distributions.Distribution.set_default_validate_args(False)   # argument checks off, as under python -O

device = torch.device("cuda:0")
agent = Agent().to(device)
mb_obs = torch.randn(16, 8).to(device)          # b_obs[mb_inds], b_actions[mb_inds], b_logprobs[mb_inds]
mb_actions = torch.randn(16, 2).to(device)
mb_logprobs = torch.randn(16).to(device)
'''
CELL = '''
_, newlogprob, entropy, newvalue = agent.get_action_and_value(mb_obs, mb_actions)
logratio = newlogprob - mb_logprobs
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "z = torch.FloatTensor(action_mean.shape).uniform_(-self.rpo_alpha, self.rpo_alpha)",
    "z = torch.FloatTensor(action_mean.shape).uniform_(-self.rpo_alpha, self.rpo_alpha).to(action_mean.device)",
)
CLEAN = False
