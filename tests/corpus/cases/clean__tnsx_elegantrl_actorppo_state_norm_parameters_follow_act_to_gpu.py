"""Look-alike: ElegantRL's ActorPPO keeps its state-normalisation statistics as frozen `nn.Parameter`s, so `.to(device)` moves them.

Source: https://github.com/AI4Finance-Foundation/ElegantRL/blob/7c64395ff4c2b53892fe6f9eaa3b58947136ffc1/elegantrl/agents/AgentPPO.py
`ActorPPO.__init__` defines `self.state_avg = nn.Parameter(th.zeros((state_dim,)), requires_grad=False)`
and `self.state_std = nn.Parameter(th.ones((state_dim,)), requires_grad=False)`; `state_norm` does
`(state - self.state_avg) / (self.state_std + 1e-4)`, and `explore_env` builds the state with
`th.as_tensor(ary_state, dtype=th.float32, device=self.device).unsqueeze(0)`. Statistics made in
`__init__` on the CPU but held as parameters: they follow the actor to the GPU, nothing to report.
Stand-in: `build_mlp` as in elegantrl/agents/AgentBase.py; the orthogonal init of the last layer
is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
import torch.nn as nn

TEN = th.Tensor

def build_mlp(dims, activation=None, if_raw_out=True):
    """elegantrl.agents.AgentBase.build_mlp"""
    if activation is None:
        activation = nn.GELU
    net_list = []
    for i in range(len(dims) - 1):
        net_list.extend([nn.Linear(dims[i], dims[i + 1]), activation()])
    if if_raw_out:
        del net_list[-1]
    return nn.Sequential(*net_list)

class ActorPPO(th.nn.Module):
    def __init__(self, net_dims, state_dim, action_dim):
        super().__init__()
        self.net = build_mlp(dims=[state_dim, *net_dims, action_dim])
        self.action_std_log = nn.Parameter(th.zeros((1, action_dim)), requires_grad=True)
        self.ActionDist = th.distributions.normal.Normal
        self.state_avg = nn.Parameter(th.zeros((state_dim,)), requires_grad=False)
        self.state_std = nn.Parameter(th.ones((state_dim,)), requires_grad=False)

    def state_norm(self, state: TEN) -> TEN:
        return (state - self.state_avg) / (self.state_std + 1e-4)

    def forward(self, state: TEN) -> TEN:
        state = self.state_norm(state)
        action = self.net(state)
        return self.convert_action_for_env(action)

    @staticmethod
    def convert_action_for_env(action: TEN) -> TEN:
        return action.tanh()

gpu_id = 0
device = th.device(f"cuda:{gpu_id}" if gpu_id >= 0 else "cpu")
state_dim, action_dim = 8, 2
act = ActorPPO(net_dims=[64, 32], state_dim=state_dim, action_dim=action_dim).to(device)
ary_state = np.random.randn(state_dim)             # what env.reset() returns
'''
CELL = '''
state = th.as_tensor(ary_state, dtype=th.float32, device=device).unsqueeze(0)
with th.no_grad():
    action = act(state)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
