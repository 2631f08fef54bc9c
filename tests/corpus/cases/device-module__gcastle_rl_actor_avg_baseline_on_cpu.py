"""gCastle's RL causal-discovery actor on the GPU: its moving reward baseline was created on the CPU.

Source: https://github.com/huawei-noah/trustworthyAI/issues/53
With `RL(device_type='gpu')`, `rl.learn(data)` failed in `actor_graph.py` `build_optim` at
`self.avg_baseline = self.alpha * self.avg_baseline + (1.0 - self.alpha) * reward_mean`:
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
The Actor is a plain object holding the encoder/decoder modules; `avg_baseline` was a
`torch.tensor([init_baseline])` made without a device (1.0.3rc3, after issue #50, passes
`device=self.device`). Stand-in: the Actor reduced to the baseline update; the reward is on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Actor(object):
    def __init__(self, max_length=6, hidden_dim=16, alpha=0.99, init_baseline=-1.0, device=None):
        self.alpha = alpha
        self.init_baseline = init_baseline
        self.device = device
        self.avg_baseline = torch.tensor([self.init_baseline])   # moving baseline for Reinforce
        self.encoder = nn.Linear(max_length, hidden_dim).to(device)
        self.critic = nn.Linear(hidden_dim, 1).to(device)

    def build_permutation(self, inputs):
        self.encoder_output = self.encoder(inputs)
        self.predictions = self.critic(self.encoder_output.mean(dim=1)).squeeze(-1)

    def build_reward(self, reward_):
        self.reward = reward_
        self.build_optim()

    def build_optim(self):
        reward_mean, reward_var = torch.mean(self.reward), torch.std(self.reward)
        self.reward_batch = reward_mean
        self.avg_baseline = self.alpha * self.avg_baseline + (1.0 - self.alpha) * reward_mean
        self.reward_baseline = (self.reward - self.avg_baseline - self.predictions).detach()

device = torch.device("cuda:0")
actor = Actor(device=device)
input_batch = torch.randn(8, 6, 6).to(device)
actor.build_permutation(input_batch)
reward_feed = np.random.randn(8, 3).astype(np.float32)     # callreward.cal_rewards(...)
'''
CELL = '''
actor.build_reward(reward_=-torch.from_numpy(reward_feed[:, 0]).to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actor.avg_baseline"]
FIX = "namespace"
REFERENCE_FIX = '''
actor.avg_baseline = actor.avg_baseline.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
