"""An RL value network called on an integer state tensor.

Source: https://github.com/pytorch/pytorch/issues/1757
The user's `value_net = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 1))` failed
on `value_net(state)` because `state` was an IntTensor built from the environment's integer
observation; the Linear's float weight cannot multiply it (then "addmm_ received an invalid
combination of arguments ... torch.IntTensor, torch.FloatTensor", today "mat1 and mat2 must have
the same dtype"). The answer: convert the state to float.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

value_net = torch.nn.Sequential(
    torch.nn.Linear(30, 64),
    torch.nn.ReLU(),
    torch.nn.Linear(64, 1))

observation = np.random.randint(0, 10, size=(1, 30)).astype(np.int32)
state = torch.from_numpy(observation)
'''
CELL = '''
value = value_net(state)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["state"]
FIX = "namespace"
REFERENCE_FIX = '''
state = state.float()
'''
REFERENCE_EDIT = None
CLEAN = False
