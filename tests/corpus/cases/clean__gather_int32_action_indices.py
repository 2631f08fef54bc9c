"""Look-alike: DQN loss gathers Q-values with int32 action indices.

Source: https://github.com/PacktPublishing/Deep-Reinforcement-Learning-Hands-On-Second-Edition/issues/45
"gather_out_cpu(): Expected dtype int64 for index" on Windows, where np.array(actions) is int32;
current PyTorch accepts int32 or int64 indices in gather ("Expected dtype int32/int64 for
index"), so this code runs and must not be reported.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 6))
states, actions = np.random.rand(16, 8).astype(np.float32), np.random.randint(0, 6, 16).astype(np.int32)
states_v = torch.tensor(states)
actions_v = torch.tensor(actions)
'''
CELL = '''
state_action_values = net(states_v).gather(1, actions_v.unsqueeze(-1)).squeeze(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
