"""TD3 with prioritized replay: the sampled reward and done flags are CPU tensors, the target Q is on cuda.

Source: https://github.com/reiniscimurs/DRL-robot-navigation/issues/142
`target_Q = reward + self.discount * (1 - done) * target_Q` in the user's `to_priority` raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!";
the maintainer: "your tensors are located on different devices". States and actions were moved to
the GPU for the critic, the reward and done tensors built from the replay sample were not.
Stand-in: a TD3 critic pair and the sampled transition tensors.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Critic(nn.Module):
    def __init__(self, state_dim=24, action_dim=2):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(state_dim + action_dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.q2 = nn.Sequential(nn.Linear(state_dim + action_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, s, a):
        sa = torch.cat([s, a], 1)
        return self.q1(sa), self.q2(sa)

device = torch.device("cuda:0")
critic_target = Critic().to(device)
actor_target = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2), nn.Tanh()).to(device)
discount = 0.99
batch_states, batch_actions, batch_rewards, batch_dones, batch_next_states = (
    np.random.randn(32, 24), np.random.randn(32, 2), np.random.randn(32, 1),
    np.random.randint(0, 2, (32, 1)), np.random.randn(32, 24))
state = torch.Tensor(batch_states).to(device)
action = torch.Tensor(batch_actions).to(device)
next_state = torch.Tensor(batch_next_states).to(device)
reward = torch.Tensor(batch_rewards)
done = torch.Tensor(batch_dones)
'''
CELL = '''
with torch.no_grad():
    next_action = actor_target(next_state)
    target_Q1, target_Q2 = critic_target(next_state, next_action)
    target_Q = torch.min(target_Q1, target_Q2)
    target_Q = reward + discount * (1 - done) * target_Q
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["done"]
FIX = "namespace"
REFERENCE_FIX = '''
reward = reward.to(device)
done = done.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
