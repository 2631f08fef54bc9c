"""on-policy MAPPO: numpy float64 observations, RNN states and masks from the runner are converted with `check(x).to(**self.tpdv)` inside the actor.

Source: https://github.com/marlbenchmark/on-policy/blob/main/onpolicy/algorithms/r_mappo/algorithm/r_actor_critic.py
`R_Actor.forward(obs, rnn_states, masks, available_actions)` starts with
`obs = check(obs).to(**self.tpdv)` where `self.tpdv = dict(dtype=torch.float32, device=device)` and
`check` is `torch.from_numpy(x) if type(x) == np.ndarray else x`; the runner passes numpy buffers
(float64 from the MPE env, float32 masks) straight from the shared buffer. Look-alike: numpy float64
arrays handed to a cuda float32 policy, converted inside forward.
Stand-ins: R_Actor with an MLP base, a GRU-free recurrent layer (Linear + masks), a categorical
action head taking the argmax of available actions.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def check(input):
    output = torch.from_numpy(input) if type(input) == np.ndarray else input
    return output

class R_Actor(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden_size=64, device=torch.device("cpu")):
        super().__init__()
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.base = nn.Sequential(nn.LayerNorm(obs_dim), nn.Linear(obs_dim, hidden_size), nn.ReLU())
        self.rnn_in = nn.Linear(hidden_size, hidden_size)
        self.rnn_h = nn.Linear(hidden_size, hidden_size)
        self.act = nn.Linear(hidden_size, action_dim)

    def forward(self, obs, rnn_states, masks, available_actions=None, deterministic=False):
        obs = check(obs).to(**self.tpdv)
        rnn_states = check(rnn_states).to(**self.tpdv)
        masks = check(masks).to(**self.tpdv)
        if available_actions is not None:
            available_actions = check(available_actions).to(**self.tpdv)
        x = self.base(obs)
        h = torch.tanh(self.rnn_in(x) + self.rnn_h(rnn_states[:, 0] * masks))
        logits = self.act(h)
        if available_actions is not None:
            logits = logits.masked_fill(available_actions == 0, -1e10)
        actions = logits.argmax(dim=-1, keepdim=True)
        return actions, torch.log_softmax(logits, -1), h.unsqueeze(1)

device = torch.device("cuda:0")
n_rollout_threads, num_agents, obs_dim, action_dim, hidden = 4, 3, 18, 5, 64
actor = R_Actor(obs_dim, action_dim, hidden, device=device)
actor.to(device)
obs = np.random.randn(n_rollout_threads * num_agents, obs_dim)                    # float64
rnn_states = np.zeros((n_rollout_threads * num_agents, 1, hidden), dtype=np.float32)
masks = np.ones((n_rollout_threads * num_agents, 1), dtype=np.float32)
available_actions = np.ones((n_rollout_threads * num_agents, action_dim), dtype=np.float32)
'''
CELL = '''
with torch.no_grad():
    actions, action_log_probs, rnn_states_out = actor(obs, rnn_states, masks, available_actions)
print(actions.device, action_log_probs.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
