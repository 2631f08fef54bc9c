"""DQN agent on the GPU picks an action for a state tensor made from the environment's numpy array.

Source: https://github.com/DeepRLChinese/DeepRL-Chinese/issues/4
Running `04_dqn.py --do_train` on a GPU failed in `agent.get_action(torch.from_numpy(state))`:
`qvals = self.Q(state)` raised "Expected all tensors to be on the same device, but found at least
two devices, cpu and cuda:0! (when checking argument for argument mat2 in method
wrapper_CUDA_mm)". The Q network had been moved to the device; the state built from the env's
numpy observation never was (the reporter's fix moves the state to the device). Stand-in: a
random observation instead of gym; the inline `torch.from_numpy(...)` gets its own line.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda:0")

class QNet(nn.Module):
    def __init__(self, dim_state=4, num_action=2):
        super().__init__()
        self.fc1 = nn.Linear(dim_state, 64)
        self.fc2 = nn.Linear(64, 32)
        self.fc3 = nn.Linear(32, num_action)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return self.fc3(x)

class DQN:
    def __init__(self, dim_state, num_action, gamma=0.99):
        self.gamma = gamma
        self.Q = QNet(dim_state, num_action)
        self.target_Q = QNet(dim_state, num_action)
        self.target_Q.load_state_dict(self.Q.state_dict())
        self.Q.to(device)
        self.target_Q.to(device)

    def get_action(self, state):
        qvals = self.Q(state)
        return qvals.argmax()

agent = DQN(dim_state=4, num_action=2)
obs = np.random.rand(4).astype(np.float32)     # env.reset()
state = torch.from_numpy(obs)
'''
CELL = '''
action = agent.get_action(state)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["state"]
FIX = "namespace"
REFERENCE_FIX = '''
state = state.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
