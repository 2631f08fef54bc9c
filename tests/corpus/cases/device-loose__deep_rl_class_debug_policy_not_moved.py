"""REINFORCE notebook: `act()` moves the state to the GPU, but the freshly built debug policy never was.

Source: https://github.com/huggingface/deep-rl-class/issues/56
Unit 5's solution section builds `debug_policy = Policy(s_size, a_size, 64)` and calls
`debug_policy.act(env.reset())`; `act` does `torch.from_numpy(state).float().unsqueeze(0).to(device)`,
so the first Linear raised "found at least two devices, cpu and cuda:0 (when checking argument
for argument mat1 in method wrapper_addmm)". The training cell's `Policy(...).to(device)` had
been skipped for the debug policy. Stand-in: the notebook's Policy and a CartPole-like state.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda:0")

class Policy(nn.Module):
    def __init__(self, s_size, a_size, h_size):
        super().__init__()
        self.fc1 = nn.Linear(s_size, h_size)
        self.fc2 = nn.Linear(h_size, a_size)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return F.softmax(self.fc2(x), dim=1)

    def act(self, state):
        state = torch.from_numpy(state).float().unsqueeze(0).to(device)
        probs = self.forward(state)
        action = probs.argmax(1)
        return action, probs.log().gather(1, action.unsqueeze(1))

s_size, a_size = 4, 2
cartpole_policy = Policy(s_size, a_size, 16).to(device)
debug_policy = Policy(s_size, a_size, 64)
state0 = np.random.randn(s_size).astype(np.float32)     # env.reset()
'''
CELL = '''
action, log_prob = debug_policy.act(state0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["debug_policy"]
FIX = "namespace"
REFERENCE_FIX = '''
debug_policy = debug_policy.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
