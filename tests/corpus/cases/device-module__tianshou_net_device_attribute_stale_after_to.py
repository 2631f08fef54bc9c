"""Tianshou DQN policy trained on the CPU, then `policy.to("cuda")`: the Net still builds its input on the CPU.

Source: https://github.com/thu-ml/tianshou/issues/727
"Fail to move trained DQN policy from CPU to GPU": after `policy.to(device)` the forward failed in
`tianshou/utils/net/common.py` at `logits = self.model(obs)`. Tianshou's `Net` keeps the `device`
string it was built with and converts observations with `torch.as_tensor(obs, device=self.device)`;
`Module.to()` moves the weights but not that attribute (issue #810 lists setting every `.device`
by hand as the only way). Stand-in: `Net` and a DQN policy reduced to what the forward uses.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Net(nn.Module):
    """tianshou.utils.net.common.Net, reduced."""
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
        logits = self.model(obs.flatten(1))
        return logits, state

class DQNPolicy(nn.Module):
    def __init__(self, model, discount_factor=0.9):
        super().__init__()
        self.model = model
        self._gamma = discount_factor

    def forward(self, obs):
        logits, hidden = self.model(obs)
        return logits.argmax(-1)

net = Net(state_shape=(4,), action_shape=(2,), hidden_sizes=(128, 128))   # trained on the CPU
policy = DQNPolicy(net)
device = torch.device("cuda:0")
policy.to(device)
state_batch = np.random.randn(16, 4).astype(np.float32)
'''
CELL = '''
act = policy(state_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.device"]
FIX = "namespace"
REFERENCE_FIX = '''
net.device = device
'''
REFERENCE_EDIT = None
CLEAN = False
