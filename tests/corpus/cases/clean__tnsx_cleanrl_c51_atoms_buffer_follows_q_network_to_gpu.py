"""Look-alike: CleanRL C51 keeps the return support `atoms` as a registered buffer, so it follows `QNetwork(...).to(device)`.

Source: https://github.com/vwxyzjn/cleanrl/blob/master/cleanrl/c51.py
`QNetwork.__init__` does `self.register_buffer("atoms", torch.linspace(v_min, v_max, steps=n_atoms))`;
the Q-values `(pmfs * self.atoms).sum(2)` and the projected target
`data.rewards + args.gamma * target_network.atoms * (1 - data.dones)` mix the support with GPU
tensors. A tensor built in `__init__` and used against CUDA data, but a buffer: nothing to report.
Stand-ins: the vector env's spaces and the replay sample (SB3 ReplayBufferSamples, on `device`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
from typing import NamedTuple
import numpy as np
import torch
import torch.nn as nn

@dataclass
class Args:
    n_atoms: int = 101
    v_min: float = -100
    v_max: float = 100
    gamma: float = 0.99
    batch_size: int = 128

class Box:
    def __init__(self, shape):
        self.shape = shape

class Discrete:
    def __init__(self, n):
        self.n = n

class SyncVectorEnv:
    """gym.vector.SyncVectorEnv([make_env("CartPole-v1", ...)]), reduced to its spaces."""
    single_observation_space = Box((4,))
    single_action_space = Discrete(2)

class ReplayBufferSamples(NamedTuple):
    observations: torch.Tensor
    actions: torch.Tensor
    next_observations: torch.Tensor
    dones: torch.Tensor
    rewards: torch.Tensor

class QNetwork(nn.Module):
    def __init__(self, env, n_atoms=101, v_min=-100, v_max=100):
        super().__init__()
        self.env = env
        self.n_atoms = n_atoms
        self.register_buffer("atoms", torch.linspace(v_min, v_max, steps=n_atoms))
        self.n = env.single_action_space.n
        self.network = nn.Sequential(
            nn.Linear(np.array(env.single_observation_space.shape).prod(), 120),
            nn.ReLU(),
            nn.Linear(120, 84),
            nn.ReLU(),
            nn.Linear(84, self.n * n_atoms),
        )

args = Args()
device = torch.device("cuda:0")
envs = SyncVectorEnv()
q_network = QNetwork(envs, n_atoms=args.n_atoms, v_min=args.v_min, v_max=args.v_max).to(device)
target_network = QNetwork(envs, n_atoms=args.n_atoms, v_min=args.v_min, v_max=args.v_max).to(device)
data = ReplayBufferSamples(
    observations=torch.randn(args.batch_size, 4, device=device),
    actions=torch.zeros(args.batch_size, 1, dtype=torch.long, device=device),
    next_observations=torch.randn(args.batch_size, 4, device=device),
    dones=torch.zeros(args.batch_size, 1, device=device),
    rewards=torch.randn(args.batch_size, 1, device=device),
)
'''
CELL = '''
with torch.no_grad():
    logits = q_network.network(data.observations)
    pmfs = torch.softmax(logits.view(len(data.observations), q_network.n, q_network.n_atoms), dim=2)
    q_values = (pmfs * q_network.atoms).sum(2)
    next_atoms = data.rewards + args.gamma * target_network.atoms * (1 - data.dones)
    tz = next_atoms.clamp(args.v_min, args.v_max)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
