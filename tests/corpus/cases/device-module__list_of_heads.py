"""Q heads kept in a Python list: `self.to(device)` never sees them.

Source: https://github.com/marlbenchmark/off-policy/pull/12
The MADDPG critic built `self.q_outs = [nn.Linear(hidden, 1) for _ in range(n)]` and called
`self.to(device)`; the list is not a ModuleList, so the heads stayed on the CPU and the first
forward raised (the fix: `nn.ModuleList`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MDDPGCritic(nn.Module):
    def __init__(self, input_dim, hidden_size=64, num_q_outs=2, device=torch.device("cuda:0")):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(input_dim, hidden_size), nn.ReLU())
        self.q_outs = [nn.Linear(hidden_size, 1) for _ in range(num_q_outs)]
        self.to(device)

    def forward(self, x):
        h = self.mlp(x)
        return [q_out(h) for q_out in self.q_outs]

critic = MDDPGCritic(input_dim=10)
obs = torch.randn(5, 10, device="cuda:0")
'''
CELL = '''
q_values = critic(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["critic.q_outs"]
FIX = "namespace"
REFERENCE_FIX = '''
for q_out in critic.q_outs:
    q_out.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
