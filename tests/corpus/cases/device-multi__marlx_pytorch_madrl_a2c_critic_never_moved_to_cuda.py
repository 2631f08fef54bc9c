"""pytorch-madrl A2C: with `use_cuda=True` only the actor is moved to the GPU; the critic stays on the CPU.

Source: https://github.com/ChenglongChen/pytorch-DRL/issues/2
The report points at A2C.py line 56 of ChenglongChen/pytorch-madrl (the multi-agent version of the
repo): `if self.use_cuda: self.actor.cuda()` "should add one more line: self.critic.cuda()". States and
actions are turned into cuda tensors by `to_tensor_var(..., self.use_cuda)`, so the critic's first
Linear meets cuda inputs with CPU weights in `train()`.
Stand-ins: the repo's ActorNetwork / CriticNetwork (critic takes state and one-hot action) and the
A2C train step reduced to the critic loss; a sampled batch of numpy arrays from the replay memory.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_tensor_var(x, use_cuda=True, dtype="float"):
    t = torch.from_numpy(np.asarray(x, dtype=np.float32 if dtype == "float" else np.int64))
    return t.to("cuda:0") if use_cuda else t      # .cuda() in the repo

class ActorNetwork(nn.Module):
    def __init__(self, state_dim, hidden_size, output_size):
        super().__init__()
        self.fc1 = nn.Linear(state_dim, hidden_size)
        self.fc2 = nn.Linear(hidden_size, hidden_size)
        self.fc3 = nn.Linear(hidden_size, output_size)

    def forward(self, state):
        out = torch.relu(self.fc2(torch.relu(self.fc1(state))))
        return torch.log_softmax(self.fc3(out), dim=-1)

class CriticNetwork(nn.Module):
    def __init__(self, state_dim, action_dim, hidden_size, output_size=1):
        super().__init__()
        self.fc1 = nn.Linear(state_dim, hidden_size)
        self.fc2 = nn.Linear(hidden_size + action_dim, hidden_size)
        self.fc3 = nn.Linear(hidden_size, output_size)

    def forward(self, state, action):
        out = torch.relu(self.fc1(state))
        out = torch.cat([out, action], 1)
        return self.fc3(torch.relu(self.fc2(out)))

class A2C:
    def __init__(self, state_dim, action_dim, hidden=32, use_cuda=True):
        self.state_dim, self.action_dim, self.use_cuda = state_dim, action_dim, use_cuda
        self.actor = ActorNetwork(state_dim, hidden, action_dim)
        self.critic = CriticNetwork(state_dim, action_dim, hidden)
        if self.use_cuda:
            self.actor.to("cuda:0")                # self.actor.cuda()

    def train(self, batch):
        states_var = to_tensor_var(batch["states"], self.use_cuda).view(-1, self.state_dim)
        actions_var = to_tensor_var(batch["actions"], self.use_cuda).view(-1, self.action_dim)
        rewards_var = to_tensor_var(batch["rewards"], self.use_cuda).view(-1, 1)
        action_log_probs = torch.sum(self.actor(states_var) * actions_var, 1)
        values = self.critic(states_var, actions_var)
        advantages = rewards_var - values
        pg_loss = -torch.mean(action_log_probs * advantages.squeeze(1))
        critic_loss = torch.mean((values - rewards_var) ** 2)
        return pg_loss, critic_loss

state_dim, action_dim, batch_size = 4, 2, 16
a2c = A2C(state_dim, action_dim, use_cuda=True)
actions = np.eye(action_dim)[np.random.randint(0, action_dim, batch_size)]
batch = {"states": np.random.randn(batch_size, state_dim),
         "actions": actions,
         "rewards": np.random.randn(batch_size)}
'''
CELL = '''
pg_loss, critic_loss = a2c.train(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["a2c.critic"]
FIX = "namespace"
REFERENCE_FIX = '''
a2c.critic.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
