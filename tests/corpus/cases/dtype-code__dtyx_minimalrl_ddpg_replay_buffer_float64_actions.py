"""minimalRL DDPG: the replay buffer builds the action batch from NumPy float64 actions, so QNet.fc_a gets a DoubleTensor.

Source: https://github.com/seungeunrho/minimalRL/issues/34
Running ddpg.py with torch 1.5 crashed while training the Q network with "Expected object of scalar
type Float but got scalar type Double for argument #2 'mat1' in call to _th_addmm". The action stored
in the buffer is `a.item() + ou_noise()[0]`, a NumPy float64, and `ReplayBuffer.sample` returned
`torch.tensor(a_lst)` (and `torch.tensor(r_lst)`) without a dtype; since torch 1.5 NumPy float64
scalars give float64 tensors. The thread was closed as fixed; the author's commit 17654b1 ("ddpg done
mask added") builds every batch tensor with `dtype=torch.float`. Stand-in: a NumPy Pendulum
(float64 observations and costs, as gym's) instead of gym; ddpg.py's buffer, networks, noise and
train() as they were at c6f5131.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import random
import collections
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(0); np.random.seed(0); torch.manual_seed(0)

#Hyperparameters
lr_mu        = 0.0005
lr_q         = 0.001
gamma        = 0.99
batch_size   = 32
buffer_limit = 50000
tau          = 0.005 # for target network soft update

class PendulumEnv:
    """Stand-in for gym's Pendulum-v0: NumPy float64 observations and rewards."""
    max_speed, max_torque, dt, g, m, l = 8, 2.0, .05, 10.0, 1.0, 1.0

    def reset(self):
        self.state = np.random.uniform(low=[-np.pi, -1], high=[np.pi, 1])
        self.t = 0
        return self._get_obs()

    def _get_obs(self):
        theta, thetadot = self.state
        return np.array([np.cos(theta), np.sin(theta), thetadot])

    def step(self, u):
        th, thdot = self.state
        u = np.clip(u, -self.max_torque, self.max_torque)[0]
        costs = ((th + np.pi) % (2 * np.pi) - np.pi) ** 2 + .1 * thdot ** 2 + .001 * (u ** 2)
        newthdot = thdot + (-3 * self.g / (2 * self.l) * np.sin(th + np.pi) + 3. / (self.m * self.l ** 2) * u) * self.dt
        newth = th + newthdot * self.dt
        self.state = np.array([newth, np.clip(newthdot, -self.max_speed, self.max_speed)])
        self.t += 1
        return self._get_obs(), -costs, self.t >= 200, {}

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
            s_lst.append(s)
            a_lst.append([a])
            r_lst.append([r])
            s_prime_lst.append(s_prime)
            done_mask_lst.append([done_mask])

        return torch.tensor(s_lst, dtype=torch.float), torch.tensor(a_lst), \\
               torch.tensor(r_lst), torch.tensor(s_prime_lst, dtype=torch.float), \\
               torch.tensor(done_mask_lst)

    def size(self):
        return len(self.buffer)

class MuNet(nn.Module):
    def __init__(self):
        super(MuNet, self).__init__()
        self.fc1 = nn.Linear(3, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc_mu = nn.Linear(64, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        mu = torch.tanh(self.fc_mu(x))*2 # Multipled by 2 because the action space of the Pendulum-v0 is [-2,2]
        return mu

class QNet(nn.Module):
    def __init__(self):
        super(QNet, self).__init__()
        self.fc_s = nn.Linear(3, 64)
        self.fc_a = nn.Linear(1,64)
        self.fc_q = nn.Linear(128, 32)
        self.fc_3 = nn.Linear(32,1)

    def forward(self, x, a):
        h1 = F.relu(self.fc_s(x))
        h2 = F.relu(self.fc_a(a))
        cat = torch.cat([h1,h2], dim=1)
        q = F.relu(self.fc_q(cat))
        q = self.fc_3(q)
        return q

class OrnsteinUhlenbeckNoise:
    def __init__(self, mu):
        self.theta, self.dt, self.sigma = 0.1, 0.01, 0.1
        self.mu = mu
        self.x_prev = np.zeros_like(self.mu)

    def __call__(self):
        x = self.x_prev + self.theta * (self.mu - self.x_prev) * self.dt + \\
                self.sigma * np.sqrt(self.dt) * np.random.normal(size=self.mu.shape)
        self.x_prev = x
        return x

def train(mu, mu_target, q, q_target, memory, q_optimizer, mu_optimizer):
    s,a,r,s_prime,done_mask  = memory.sample(batch_size)

    target = r + gamma * q_target(s_prime, mu_target(s_prime))
    q_loss = F.smooth_l1_loss(q(s,a), target.detach())
    q_optimizer.zero_grad()
    q_loss.backward()
    q_optimizer.step()

    mu_loss = -q(s,mu(s)).mean() # That's all for the policy loss.
    mu_optimizer.zero_grad()
    mu_loss.backward()
    mu_optimizer.step()

def soft_update(net, net_target):
    for param_target, param in zip(net_target.parameters(), net.parameters()):
        param_target.data.copy_(param_target.data * (1.0 - tau) + param.data * tau)

env = PendulumEnv()
memory = ReplayBuffer()

q, q_target = QNet(), QNet()
q_target.load_state_dict(q.state_dict())
mu, mu_target = MuNet(), MuNet()
mu_target.load_state_dict(mu.state_dict())

score = 0.0
mu_optimizer = optim.Adam(mu.parameters(), lr=lr_mu)
q_optimizer  = optim.Adam(q.parameters(), lr=lr_q)
ou_noise = OrnsteinUhlenbeckNoise(mu=np.zeros(1))

s = env.reset()
for t in range(64):
    with torch.no_grad():
        a = mu(torch.from_numpy(s).float())
    a = a.item() + ou_noise()[0]
    s_prime, r, done, info = env.step([a])
    memory.put((s,a,r/100.0,s_prime,done))
    score +=r
    s = s_prime
'''
CELL = '''
train(mu, mu_target, q, q_target, memory, q_optimizer, mu_optimizer)
soft_update(mu, mu_target)
soft_update(q,  q_target)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type Float but found Double",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["memory"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        return torch.tensor(s_lst, dtype=torch.float), torch.tensor(a_lst), \\
               torch.tensor(r_lst), torch.tensor(s_prime_lst, dtype=torch.float), \\
               torch.tensor(done_mask_lst)""",
    """        return torch.tensor(s_lst, dtype=torch.float), torch.tensor(a_lst, dtype=torch.float), \\
                torch.tensor(r_lst, dtype=torch.float), torch.tensor(s_prime_lst, dtype=torch.float), \\
                torch.tensor(done_mask_lst, dtype=torch.float)""",
)
CLEAN = False
