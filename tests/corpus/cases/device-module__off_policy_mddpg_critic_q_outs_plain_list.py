"""off-policy MADDPG critic: the Q-output heads sit in a plain Python list, so `self.to(device)` skips them.

Source: https://github.com/marlbenchmark/off-policy/pull/12
`sh ./train_mpe_maddpg.sh` failed with "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!". `MADDPG_Critic.__init__` builds
`self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]` and then calls
`self.to(device)`: a list is not a registered submodule, so the heads stay on the CPU while the MLP
trunk and the inputs are on the GPU. The fix in the PR: `nn.ModuleList`.
Stand-in: the critic with a two-layer MLP trunk and `tpdv` input handling, `init_` reduced to
orthogonal weights.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def init_(m):
    nn.init.orthogonal_(m.weight)
    nn.init.zeros_(m.bias)
    return m

def to_torch(x):
    return torch.from_numpy(x) if isinstance(x, np.ndarray) else x

class MLPBase(nn.Module):
    def __init__(self, input_dim, hidden_size):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(input_dim, hidden_size), nn.ReLU(),
                                nn.Linear(hidden_size, hidden_size), nn.ReLU())

    def forward(self, x):
        return self.fc(x)

class MADDPG_Critic(nn.Module):
    def __init__(self, central_obs_dim, central_act_dim, device, hidden_size=32, num_q_outs=1):
        super().__init__()
        self.hidden_size = hidden_size
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.mlp = MLPBase(central_obs_dim + central_act_dim, hidden_size)
        self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]
        self.to(device)

    def forward(self, central_obs, central_act):
        central_obs = to_torch(central_obs)
        central_act = to_torch(central_act)
        x = torch.cat([central_obs, central_act], dim=1)
        x = x.to(**self.tpdv)
        x = self.mlp(x)
        q_values = [q_out(x) for q_out in self.q_outs]
        return q_values

device = torch.device("cuda:0")
critic = MADDPG_Critic(central_obs_dim=18, central_act_dim=5, device=device)
cent_obs = np.random.randn(8, 18).astype(np.float32)
cent_act = np.random.randn(8, 5).astype(np.float32)
'''
CELL = '''
q_values = critic(cent_obs, cent_act)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["critic.q_outs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]",
    "self.q_outs = nn.ModuleList([init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)])",
)
CLEAN = False
