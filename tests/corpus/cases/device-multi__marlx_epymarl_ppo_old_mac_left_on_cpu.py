"""EPyMARL MAPPO: `PPOLearner.cuda()` moves `mac`, critic and target critic but not `old_mac`; the old policy stays on the CPU.

Source: https://github.com/uoe-agents/epymarl/issues/1
"mappo and mappo_ns dont run": with a GPU every other algorithm trains but MAPPO fails with
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0 (argument mat1
in wrapper_addmm)". The maintainers' fix (commit a16fd23, "ppo controller staying in cpu") adds
`self.old_mac.cuda()` to `PPOLearner.cuda()`: `old_mac` is a deepcopy of the controller taken in
`__init__`, before `learner.cuda()`, and it computes the old action probabilities on the cuda batch.
Stand-ins: a minimal BasicMAC (RNN agent, the GRUCell written as two Linears), a centralised critic and the learner's train step reduced
to the old/new policy ratio; the episode batch is a dict of tensors already on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn

class RNNAgent(nn.Module):
    def __init__(self, input_shape, hidden_dim, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(input_shape, hidden_dim)
        self.rnn_ih = nn.Linear(hidden_dim, hidden_dim)   # GRUCell in epymarl
        self.rnn_hh = nn.Linear(hidden_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, n_actions)

    def forward(self, inputs, hidden_state):
        x = torch.relu(self.fc1(inputs))
        h = torch.tanh(self.rnn_ih(x) + self.rnn_hh(hidden_state))
        return self.fc2(h), h

class BasicMAC:
    def __init__(self, n_agents, input_shape, n_actions, hidden_dim=32):
        self.n_agents = n_agents
        self.hidden_dim = hidden_dim
        self.agent = RNNAgent(input_shape, hidden_dim, n_actions)

    def forward(self, batch, t):
        obs = batch["obs"][:, t]                                  # (bs, n_agents, obs_dim)
        bs = obs.shape[0]
        h = torch.zeros(bs * self.n_agents, self.hidden_dim, device=obs.device)
        q, _ = self.agent(obs.reshape(bs * self.n_agents, -1), h)
        return torch.softmax(q, dim=-1).view(bs, self.n_agents, -1)

    def parameters(self):
        return self.agent.parameters()

    def cuda(self):
        self.agent.to("cuda:0")              # .cuda() in epymarl

class CentralVCritic(nn.Module):
    def __init__(self, state_dim, n_agents):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, n_agents))

    def forward(self, batch, t):
        return self.fc(batch["state"][:, t])

class PPOLearner:
    def __init__(self, mac, critic):
        self.mac = mac
        self.old_mac = copy.deepcopy(mac)
        self.critic = critic
        self.target_critic = copy.deepcopy(critic)

    def train(self, batch, t_env=0):
        old_pi = self.old_mac.forward(batch, 0)
        pi = self.mac.forward(batch, 0)
        actions = batch["actions"][:, 0]
        ratio = torch.gather(pi, 2, actions) / torch.gather(old_pi, 2, actions).clamp_min(1e-8)
        advantages = batch["reward"][:, 0] - self.critic(batch, 0)
        return -(ratio.squeeze(-1) * advantages).mean()

    def cuda(self):
        self.mac.cuda()
        self.critic.to("cuda:0")
        self.target_critic.to("cuda:0")

n_agents, obs_dim, state_dim, n_actions, bs, T = 3, 18, 30, 5, 8, 4
mac = BasicMAC(n_agents, obs_dim, n_actions)
learner = PPOLearner(mac, CentralVCritic(state_dim, n_agents))
learner.cuda()                                   # args.use_cuda

batch = {
    "obs": torch.randn(bs, T, n_agents, obs_dim, device="cuda:0"),
    "state": torch.randn(bs, T, state_dim, device="cuda:0"),
    "actions": torch.randint(0, n_actions, (bs, T, n_agents, 1), device="cuda:0"),
    "reward": torch.randn(bs, T, 1, device="cuda:0"),
}
'''
CELL = '''
loss = learner.train(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["learner.old_mac"]
FIX = "namespace"
REFERENCE_FIX = '''
learner.old_mac.agent.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
