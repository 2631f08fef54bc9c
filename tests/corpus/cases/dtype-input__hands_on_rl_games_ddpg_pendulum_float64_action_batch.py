"""Hands-On RL for Games, Chapter 8 DDPG on Pendulum: the replay buffer turns the noisy float64 actions into a float64 batch fed to the critic.

Source: https://github.com/PacktPublishing/Hands-On-Reinforcement-Learning-for-Games/pull/2
"a_lst fix dtype: not setting the dtype of a_lst to float will raise an error during iteration steps".
The loop stores `a = a.item() + ou_noise()[0]` (a NumPy float64, since the Ornstein-Uhlenbeck noise
is float64), and `ReplayBuffer.sample` returns `torch.tensor(a_lst)` without a dtype, i.e. float64,
while states get `dtype=torch.float`; `train` then calls `q(s, a)` and `self.fc_a(a)` multiplies a
Double batch by Float weights. The PR adds `dtype=torch.float` for `a_lst`. Stand-ins: the chapter's
ReplayBuffer, MuNet, QNet and train(); Pendulum transitions are generated instead of simulated.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import random, collections
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

lr_mu, lr_q, gamma, batch_size, buffer_limit = 0.0005, 0.001, 0.99, 32, 50000

class ReplayBuffer():
    def __init__(self):
        self.buffer = collections.deque(maxlen=buffer_limit)
    def put(self, transition):
        self.buffer.append(transition)
    def sample(self, n):
        mini_batch = random.sample(self.buffer, n)
        s_lst, a_lst, r_lst, s_prime_lst, done_mask_lst = [], [], [], [], []
        for transition in mini_batch:
            s, a, r, s_prime, done_mask = transition
            s_lst.append(s); a_lst.append([a]); r_lst.append([r])
            s_prime_lst.append(s_prime); done_mask_lst.append([done_mask])
        return torch.tensor(np.array(s_lst), dtype=torch.float), torch.tensor(a_lst), \\
               torch.tensor(r_lst, dtype=torch.float), torch.tensor(np.array(s_prime_lst), dtype=torch.float), \\
               torch.tensor(done_mask_lst)
    def size(self):
        return len(self.buffer)

class MuNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc_mu = nn.Linear(3, 128), nn.Linear(128, 64), nn.Linear(64, 1)
    def forward(self, x):
        return torch.tanh(self.fc_mu(F.relu(self.fc2(F.relu(self.fc1(x)))))) * 2

class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_s, self.fc_a, self.fc_q, self.fc_3 = nn.Linear(3, 64), nn.Linear(1, 64), nn.Linear(128, 32), nn.Linear(32, 1)
    def forward(self, x, a):
        h1, h2 = F.relu(self.fc_s(x)), F.relu(self.fc_a(a))
        return self.fc_3(F.relu(self.fc_q(torch.cat([h1, h2], dim=1))))

class OrnsteinUhlenbeckNoise:
    def __init__(self, mu):
        self.theta, self.dt, self.sigma, self.mu = 0.1, 0.01, 0.1, mu
        self.x_prev = np.zeros_like(self.mu)
    def __call__(self):
        x = self.x_prev + self.theta * (self.mu - self.x_prev) * self.dt + self.sigma * np.sqrt(self.dt) * np.random.normal(size=self.mu.shape)
        self.x_prev = x
        return x

def train(mu, mu_target, q, q_target, memory, q_optimizer, mu_optimizer):
    s, a, r, s_prime, done_mask = memory.sample(batch_size)
    target = r + gamma * q_target(s_prime, mu_target(s_prime))
    q_loss = F.smooth_l1_loss(q(s, a), target.detach())
    q_optimizer.zero_grad(); q_loss.backward(); q_optimizer.step()
    mu_loss = -q(s, mu(s)).mean()
    mu_optimizer.zero_grad(); mu_loss.backward(); mu_optimizer.step()

memory = ReplayBuffer()
q, q_target = QNet(), QNet(); q_target.load_state_dict(q.state_dict())
mu, mu_target = MuNet(), MuNet(); mu_target.load_state_dict(mu.state_dict())
mu_optimizer = optim.Adam(mu.parameters(), lr=lr_mu)
q_optimizer = optim.Adam(q.parameters(), lr=lr_q)
ou_noise = OrnsteinUhlenbeckNoise(mu=np.zeros(1))
s = np.random.randn(3).astype(np.float32)          # env.reset() (Pendulum-v0)
for t in range(200):
    a = mu(torch.from_numpy(s).float())
    a = a.item() + ou_noise()[0]
    s_prime, r, done = np.random.randn(3).astype(np.float32), -float(np.random.rand()), False
    memory.put((s, a, r / 100.0, s_prime, done))
    s = s_prime
'''
CELL = '''
train(mu, mu_target, q, q_target, memory, q_optimizer, mu_optimizer)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["memory"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(a_lst)", "torch.tensor(a_lst, dtype=torch.float)")
CLEAN = False
