"""morl-baselines PCN: `MOPolicy.__init__(self, device)` passes the device positionally into `id`, so the policy falls back to "auto" (CUDA).

Source: https://github.com/LucasAlegre/morl-baselines/issues/153
"Device mismatch due to positional constructor argument": RuntimeError: Expected all tensors to be
on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for
argument mat1 in method wrapper_CUDA_addmm). `PCN.__init__` calls `MOAgent.__init__(self, env,
device=device)` and then `MOPolicy.__init__(self, device)`, whose signature is `(id=None,
device="auto")`: the requested device lands in `id` and `self.device` is reset to CUDA when it is
available, so `self.model` is built on cuda:0 although the user asked for "cpu" (fix in PR #154:
`device=device`). The issue has no trace; here the user's evaluation code feeds tensors on the
device they configured. Stand-ins: MOAgent/MOPolicy and PCN with its default discrete model; "auto"
resolves to cuda:0 as on the reporter's GPU machine.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

class MOPolicy:
    def __init__(self, id=None, device="auto"):
        self.id = id
        self.device = th.device("cuda:0") if device == "auto" else device      # th.cuda.is_available()

class MOAgent:
    def __init__(self, env, device="auto", seed=None):
        self.env = env
        self.observation_dim, self.action_dim, self.reward_dim = env["obs_dim"], env["n_actions"], env["reward_dim"]
        self.device = th.device("cuda:0") if device == "auto" else device

class DiscreteActionsDefaultModel(nn.Module):
    def __init__(self, state_dim, action_dim, reward_dim, scaling_factor, hidden_dim):
        super().__init__()
        self.scaling_factor = nn.Parameter(th.tensor(scaling_factor).float(), requires_grad=False)
        self.s_emb = nn.Sequential(nn.Linear(state_dim, hidden_dim), nn.Sigmoid())
        self.c_emb = nn.Sequential(nn.Linear(reward_dim + 1, hidden_dim), nn.Sigmoid())
        self.fc = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, action_dim), nn.LogSoftmax(dim=1))
    def forward(self, state, desired_return, desired_horizon):
        c = th.cat((desired_return, desired_horizon), dim=-1) * self.scaling_factor
        return self.fc(self.s_emb(state.float()) * self.c_emb(c))

class PCN(MOAgent, MOPolicy):
    def __init__(self, env, scaling_factor, hidden_dim=64, device="auto", seed=None):
        MOAgent.__init__(self, env, device=device, seed=seed)
        MOPolicy.__init__(self, device)
        self.model = DiscreteActionsDefaultModel(self.observation_dim, self.action_dim, self.reward_dim,
                                                 scaling_factor, hidden_dim=hidden_dim).to(self.device)

device = "cpu"
env = {"obs_dim": 110, "n_actions": 4, "reward_dim": 2}        # mo-gym "deep-sea-treasure-v0" (one-hot obs)
agent = PCN(env, scaling_factor=np.array([0.1, 0.1, 0.01]), device=device)
obs = np.random.rand(110).astype(np.float32)
desired_return, desired_horizon = np.array([124.0, -19.0]), 19.0
'''
CELL = '''
log_probs = agent.model(
    th.tensor(np.array([obs])).float().to(device),
    th.tensor(np.array([desired_return])).float().to(device),
    th.tensor(np.array([desired_horizon])).unsqueeze(1).float().to(device),
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("MOPolicy.__init__(self, device)", "MOPolicy.__init__(self, device=device)")
CLEAN = False
