"""Cross-entropy method on CartPole ported to the GPU: the net was moved, the observation tensor was not.

Source: https://github.com/PacktPublishing/Deep-Reinforcement-Learning-Hands-On/issues/35
"Converting to support GPU": the reader moved `net` to cuda in the chapter 4 CartPole script and
training failed inside `iterate_batches`. The author: "In function `iterate_batches`, tensor `obs_v`
is still on CPU, you need to copy it to GPU backend with `obs_v = torch.FloatTensor([obs]).to(device)`".
Stand-in: the book's Net and one step of `iterate_batches`, with a NumPy observation in place of gym's.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

HIDDEN_SIZE = 128

class Net(nn.Module):
    def __init__(self, obs_size, hidden_size, n_actions):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, n_actions))

    def forward(self, x):
        return self.net(x)

device = torch.device("cuda:0")
obs_size, n_actions = 4, 2
net = Net(obs_size, HIDDEN_SIZE, n_actions).to(device)
sm = nn.Softmax(dim=1)
obs = np.random.uniform(-0.05, 0.05, size=obs_size).astype(np.float32)   # env.reset()
obs_v = torch.FloatTensor(np.array([obs]))
'''
CELL = '''
act_probs_v = sm(net(obs_v))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["obs_v"]
FIX = "namespace"
REFERENCE_FIX = '''
obs_v = obs_v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
