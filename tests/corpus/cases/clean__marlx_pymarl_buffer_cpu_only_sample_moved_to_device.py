"""PyMARL `buffer_cpu_only`: the replay buffer of episodes lives on the CPU, each sampled batch is moved to the GPU before training.

Source: https://github.com/oxwhirl/pymarl/blob/master/src/run.py
In `run_sequential`, `ReplayBuffer(..., device="cpu" if args.buffer_cpu_only else args.device)` keeps
the SMAC episodes in host memory while the QMIX learner (agents + mixer) is on cuda; the loop does
`episode_sample = episode_sample[:, :max_ep_t]` and `if episode_sample.device != args.device:
episode_sample.to(args.device)` before `learner.train(...)`. Look-alike: a CPU buffer next to a cuda
learner, on purpose. Stand-ins: EpisodeBatch as a dict of tensors with `.to()`, a QMIX-shaped learner
step (agent Q-values, chosen-action gather, monotonic mixer).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class EpisodeBatch:
    def __init__(self, data, device):
        self.data, self.device = data, device

    def to(self, device):
        for k, v in self.data.items():
            self.data[k] = v.to(device)
        self.device = device
        return self

    def __getitem__(self, k):
        return self.data[k]

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
        y = torch.bmm(hidden, w_final) + self.V(states).view(-1, 1, 1)
        return y.view(bs, -1, 1)

class QLearner:
    def __init__(self, n_agents, obs_dim, state_dim, n_actions):
        self.agent = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.mixer = QMixer(n_agents, state_dim)

    def cuda(self):
        self.agent.to("cuda:0")
        self.mixer.to("cuda:0")

    def train(self, batch, t_env, episode_num):
        q = self.agent(batch["obs"])                                   # (bs, T, n_agents, n_actions)
        chosen = torch.gather(q, dim=3, index=batch["actions"]).squeeze(3)
        q_tot = self.mixer(chosen, batch["state"])
        return ((q_tot - batch["reward"]) ** 2).mean()

args = SimpleNamespace(device="cuda:0", buffer_cpu_only=True, batch_size=8)
n_agents, obs_dim, state_dim, n_actions, T = 3, 30, 48, 9, 6
learner = QLearner(n_agents, obs_dim, state_dim, n_actions)
learner.cuda()
buffer_device = "cpu" if args.buffer_cpu_only else args.device
episode_sample = EpisodeBatch({
    "obs": torch.randn(args.batch_size, T, n_agents, obs_dim),
    "state": torch.randn(args.batch_size, T, state_dim),
    "actions": torch.randint(0, n_actions, (args.batch_size, T, n_agents, 1)),
    "reward": torch.randn(args.batch_size, T, 1),
}, device=buffer_device)
'''
CELL = '''
if episode_sample.device != args.device:
    episode_sample.to(args.device)
loss = learner.train(episode_sample, t_env=0, episode_num=0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
