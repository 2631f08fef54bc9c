"""RLHive DQNAgent with `device='cuda'`: observations go to the device but the Q-network was never moved there.

Source: https://github.com/chandar-lab/RLHive/pull/83
"Fix cuda issue with qnet to device" (for issue #71, "device='cuda' is not working yet"): in
`DQNAgent.__init__` the network was built with `self._qnet = get_qnet(qnet)` and the target copied
from it, while `act()` creates the observation tensor with `device=self._device`. The fix is
`get_qnet(qnet).to(device)`. RLHive runs these agents in its single- and multi-agent loops.
Stand-ins: the DQNAgent constructor and `act()` (greedy, no epsilon), a SimpleMLP Q-network.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import copy
import numpy as np
import torch
from torch import nn

class SimpleMLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden_units=256):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(in_dim, hidden_units), nn.ReLU(), nn.Linear(hidden_units, out_dim))

    def forward(self, x):
        return self.network(x.flatten(start_dim=1))

def get_qnet(qnet):
    return SimpleMLP(**qnet["kwargs"])

class DQNAgent:
    def __init__(self, qnet, obs_dim, act_dim, device="cpu"):
        self._obs_dim, self._act_dim = obs_dim, act_dim
        self._device = torch.device(device)
        qnet["kwargs"]["in_dim"] = obs_dim
        qnet["kwargs"]["out_dim"] = act_dim
        self._qnet = get_qnet(qnet)
        self._target_qnet = copy.deepcopy(self._qnet).requires_grad_(False)
        self._optimizer = torch.optim.Adam(self._qnet.parameters(), lr=1e-3)

    @torch.no_grad()
    def act(self, observation):
        observation = torch.tensor(np.expand_dims(observation, axis=0), device=self._device).float()
        qvals = self._qnet(observation)
        return torch.argmax(qvals)

agent = DQNAgent({"name": "SimpleMLP", "kwargs": {"hidden_units": 64}}, obs_dim=16, act_dim=4, device="cuda:0")
observation = np.random.rand(16).astype(np.float32)
'''
CELL = '''
action = agent.act(observation)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent._qnet"]
FIX = "namespace"
REFERENCE_FIX = '''
agent._qnet.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
