"""PyMARL QMIX learner: long action indices, integer `avail_actions`, float terminated/mask tensors in one loss, all by design.

Source: https://github.com/oxwhirl/pymarl/blob/master/src/learners/q_learner.py
`QLearner.train` reads `actions = batch["actions"][:, :-1]` (long, for `torch.gather`),
`avail_actions = batch["avail_actions"]` (int, compared with `== 0` to mask target Q-values with
-9999999), `terminated` and `mask` cast with `.float()`, then mixes with QMixer and takes the masked
TD error. Look-alike: integer, long and float tensors side by side in a float32 model, all
correctly typed. Stand-ins: an MLP agent instead of the RNN, the QMixer hypernetworks, double-Q.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class QMixer(nn.Module):
    def __init__(self, n_agents, state_dim, embed_dim=32):
        super().__init__()
        self.n_agents, self.embed_dim = n_agents, embed_dim
        self.hyper_w_1 = nn.Linear(state_dim, embed_dim * n_agents)
        self.hyper_w_final = nn.Linear(state_dim, embed_dim)
        self.hyper_b_1 = nn.Linear(state_dim, embed_dim)
        self.V = nn.Sequential(nn.Linear(state_dim, embed_dim), nn.ReLU(), nn.Linear(embed_dim, 1))

    def forward(self, agent_qs, states):
        bs = agent_qs.size(0)
        states = states.reshape(-1, states.shape[-1])
        agent_qs = agent_qs.view(-1, 1, self.n_agents)
        w1 = torch.abs(self.hyper_w_1(states)).view(-1, self.n_agents, self.embed_dim)
        b1 = self.hyper_b_1(states).view(-1, 1, self.embed_dim)
        hidden = torch.nn.functional.elu(torch.bmm(agent_qs, w1) + b1)
        w_final = torch.abs(self.hyper_w_final(states)).view(-1, self.embed_dim, 1)
        return (torch.bmm(hidden, w_final) + self.V(states).view(-1, 1, 1)).view(bs, -1, 1)

n_agents, obs_dim, state_dim, n_actions, bs, T = 3, 30, 48, 9, 8, 7
agent = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
target_agent = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
mixer, target_mixer = QMixer(n_agents, state_dim), QMixer(n_agents, state_dim)
gamma = 0.99

batch = {
    "obs": torch.randn(bs, T, n_agents, obs_dim),
    "state": torch.randn(bs, T, state_dim),
    "actions": torch.randint(0, n_actions, (bs, T, n_agents, 1)),          # long
    "avail_actions": torch.randint(0, 2, (bs, T, n_agents, n_actions), dtype=torch.int),
    "reward": torch.randn(bs, T, 1),
    "terminated": torch.zeros(bs, T, 1, dtype=torch.uint8),
    "filled": torch.ones(bs, T, 1, dtype=torch.long),
}
batch["avail_actions"][..., 0] = 1
'''
CELL = '''
rewards = batch["reward"][:, :-1]
actions = batch["actions"][:, :-1]
terminated = batch["terminated"][:, :-1].float()
mask = batch["filled"][:, :-1].float()
mask[:, 1:] = mask[:, 1:] * (1 - terminated[:, :-1])
avail_actions = batch["avail_actions"]

mac_out = agent(batch["obs"])
chosen_action_qvals = torch.gather(mac_out[:, :-1], dim=3, index=actions).squeeze(3)
target_mac_out = target_agent(batch["obs"])[:, 1:]
target_mac_out[avail_actions[:, 1:] == 0] = -9999999
mac_out_detach = mac_out.clone().detach()
mac_out_detach[avail_actions == 0] = -9999999
cur_max_actions = mac_out_detach[:, 1:].max(dim=3, keepdim=True)[1]
target_max_qvals = torch.gather(target_mac_out, 3, cur_max_actions).squeeze(3)

chosen_action_qvals = mixer(chosen_action_qvals, batch["state"][:, :-1])
target_max_qvals = target_mixer(target_max_qvals, batch["state"][:, 1:])
targets = rewards + gamma * (1 - terminated) * target_max_qvals
td_error = chosen_action_qvals - targets.detach()
loss = ((td_error * mask) ** 2).sum() / mask.sum()
loss.backward()
print(loss.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
