"""Look-alike: minimalRL DQN feeds NumPy float64 observations and keeps the sampled actions int64 for `gather`.

Source: https://github.com/seungeunrho/minimalRL/blob/master/dqn.py
The environment returns NumPy float64 observations; `sample_action` gets `torch.from_numpy(s).float()`
and `ReplayBuffer.sample` builds states with `dtype=torch.float`, while the actions are left as
`torch.tensor(a_lst)` (int64) because they index `q_out.gather(1, a)`; rewards are Python floats
(`r/100.0`) and the done mask a Python float, so those tensors are float32. Nothing is mismatched.
Stand-in: a NumPy CartPole (float64 observations, reward 1.0) instead of gym; dqn.py's buffer,
Qnet and train() as in the repository.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import collections
import random
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(0); np.random.seed(0); torch.manual_seed(0)

#Hyperparameters
learning_rate = 0.0005
gamma         = 0.98
buffer_limit  = 50000
batch_size    = 32

class CartPoleEnv:
    """Stand-in for gym's CartPole-v1: float64 state, reward 1.0 per step."""
    def reset(self):
        self.state = np.random.uniform(low=-0.05, high=0.05, size=(4,))
        self.t = 0
        return self.state, {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        theta_dot = theta_dot + 0.02 * (9.8 * np.sin(theta) - force * np.cos(theta) / 1.1)
        x_dot = x_dot + 0.02 * force / 1.1
        self.state = np.array([x + 0.02 * x_dot, x_dot, theta + 0.02 * theta_dot, theta_dot])
        self.t += 1
        done = bool(abs(self.state[2]) > 0.2095 or abs(self.state[0]) > 2.4)
        return self.state, 1.0, done, self.t >= 500, {}

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

class Qnet(nn.Module):
    def __init__(self):
        super(Qnet, self).__init__()
        self.fc1 = nn.Linear(4, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 2)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

    def sample_action(self, obs, epsilon):
        out = self.forward(obs)
        coin = random.random()
        if coin < epsilon:
            return random.randint(0,1)
        else :
            return out.argmax().item()

def train(q, q_target, memory, optimizer):
    for i in range(10):
        s,a,r,s_prime,done_mask = memory.sample(batch_size)

        q_out = q(s)
        q_a = q_out.gather(1,a)
        max_q_prime = q_target(s_prime).max(1)[0].unsqueeze(1)
        target = r + gamma * max_q_prime * done_mask
        loss = F.smooth_l1_loss(q_a, target)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

env = CartPoleEnv()
q = Qnet()
q_target = Qnet()
q_target.load_state_dict(q.state_dict())
memory = ReplayBuffer()
optimizer = optim.Adam(q.parameters(), lr=learning_rate)
score = 0.0
epsilon = 0.08

while memory.size() < 200:
    s, _ = env.reset()
    done = False
    while not done:
        with torch.no_grad():
            a = q.sample_action(torch.from_numpy(s).float(), epsilon)
        s_prime, r, done, truncated, info = env.step(a)
        done_mask = 0.0 if done else 1.0
        memory.put((s,a,r/100.0,s_prime, done_mask))
        s = s_prime
        score += r
        if done:
            break
'''
CELL = '''
train(q, q_target, memory, optimizer)
q_target.load_state_dict(q.state_dict())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
