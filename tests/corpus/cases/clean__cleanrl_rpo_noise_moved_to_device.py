"""Look-alike: CleanRL's RPO agent after the fix, the CPU-drawn uniform noise is moved before it is added.

Source: https://github.com/vwxyzjn/cleanrl/pull/396
The merged fix keeps `z = torch.FloatTensor(action_mean.shape).uniform_(-rpo_alpha, rpo_alpha)` (drawn
on the CPU) and appends `.to(device)`, so the perturbed mean, the Normal and the critic all live on
the GPU. A tensor is built on the CPU inside the forward, on purpose, and moved: nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

torch.distributions.Distribution.set_default_validate_args(False)   # argument checks off, as under python -O

device = torch.device("cuda:0")

class Agent(nn.Module):
    def __init__(self, obs_dim=8, act_dim=2, rpo_alpha=0.5):
        super().__init__()
        self.rpo_alpha = rpo_alpha
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor_mean = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_action_and_value(self, x, action=None):
        action_mean = self.actor_mean(x)
        action_std = torch.exp(self.actor_logstd.expand_as(action_mean))
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        else:  # new to RPO
            z = torch.FloatTensor(action_mean.shape).uniform_(-self.rpo_alpha, self.rpo_alpha).to(device)
            action_mean = action_mean + z
            probs = Normal(action_mean, action_std)
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)

agent = Agent().to(device)
mb_obs = torch.randn(16, 8).to(device)
mb_actions = torch.randn(16, 2).to(device)
mb_logprobs = torch.randn(16).to(device)
'''
CELL = '''
_, newlogprob, entropy, newvalue = agent.get_action_and_value(mb_obs, mb_actions)
logratio = newlogprob - mb_logprobs
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
