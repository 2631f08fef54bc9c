"""Look-alike: pytorch/examples REINFORCE turns a deque of Python floats into `torch.tensor(returns)` and normalises with a numpy eps.

Source: https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py
`finish_episode()` computes discounted returns in a `deque` of Python floats, `returns =
torch.tensor(returns)` (float32, not float64: the values are Python floats, not a numpy array),
normalises with `eps = np.finfo(np.float32).eps.item()`, multiplies each saved `log_prob` by its
return and `torch.cat(policy_loss).sum()`s them. numpy next to float32 tensors, but no float64 tensor
is ever made, so it runs. Stand-in: the example's Policy and a fake 5-step episode; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from collections import deque
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

gamma = 0.99

class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(128, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)

policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()

def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()

rng = np.random.default_rng(0)
for t in range(5):
    state = rng.standard_normal(4)          # env.step(...) returns a float64 numpy state
    action = select_action(state)
    policy.rewards.append(1.0)
'''
CELL = '''
R = 0
policy_loss = []
returns = deque()
for r in policy.rewards[::-1]:
    R = r + gamma * R
    returns.appendleft(R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + eps)
for log_prob, R in zip(policy.saved_log_probs, returns):
    policy_loss.append(-log_prob * R)
optimizer.zero_grad()
policy_loss = torch.cat(policy_loss).sum()
policy_loss.backward()
optimizer.step()
del policy.rewards[:]
del policy.saved_log_probs[:]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
