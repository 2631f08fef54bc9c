"""Look-alike: a Tianshou-style Net that keeps a `device` string, built with the GPU device and moved to it.

Source: https://github.com/thu-ml/tianshou/issues/727
Tianshou's documented pattern is `Net(..., device=device).to(device)`: the Net converts NumPy
observations with `torch.as_tensor(obs, device=self.device)`, so the attribute and the weights agree.
The observation batch is a NumPy array on the host; converting it inside `forward` is the design.
Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self, state_shape, action_shape, hidden_sizes=(64, 64), device="cpu"):
        super().__init__()
        self.device = device
        layers, in_dim = [], int(np.prod(state_shape))
        for h in hidden_sizes:
            layers += [nn.Linear(in_dim, h), nn.ReLU()]
            in_dim = h
        layers.append(nn.Linear(in_dim, int(np.prod(action_shape))))
        self.model = nn.Sequential(*layers)

    def forward(self, obs, state=None, info={}):
        obs = torch.as_tensor(obs, device=self.device, dtype=torch.float32)
        return self.model(obs.flatten(1)), state

class DQNPolicy(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, obs):
        logits, _ = self.model(obs)
        return logits.argmax(-1)

device = torch.device("cuda:0")
net = Net(state_shape=(4,), action_shape=(2,), hidden_sizes=(128, 128), device=device).to(device)
policy = DQNPolicy(net)
state_batch = np.random.randn(16, 4).astype(np.float32)
'''
CELL = '''
act = policy(state_batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
