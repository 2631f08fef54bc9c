"""maddpg-pytorch: `prep_rollouts(device='cpu')` puts the policies on the CPU for environment steps while the critics stay on the GPU.

Source: https://github.com/shariqiqbal2810/maddpg-pytorch/blob/master/main.py
The training loop calls `maddpg.prep_rollouts(device='cpu')` before stepping the MPE environment:
only each agent's `policy` is moved (`pol_dev`), the critics and target networks keep the device
of the last `prep_training(device='gpu')`. Observations are wrapped as CPU tensors
(`Variable(torch.Tensor(np.vstack(obs[:, i])))`) and fed to the CPU policies. Look-alike: cpu
observations and policies beside cuda critics, on purpose.
Stand-ins: DDPGAgent with policy/critic MLPs and MADDPG with prep_training/prep_rollouts/step.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MLPNetwork(nn.Module):
    def __init__(self, input_dim, out_dim, hidden_dim=64):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, hidden_dim)
        self.fc3 = nn.Linear(hidden_dim, out_dim)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

class DDPGAgent:
    def __init__(self, num_in_pol, num_out_pol, num_in_critic):
        self.policy = MLPNetwork(num_in_pol, num_out_pol)
        self.critic = MLPNetwork(num_in_critic, 1)

    def step(self, obs, explore=False):
        return torch.tanh(self.policy(obs))

class MADDPG:
    def __init__(self, agent_init_params):
        self.agents = [DDPGAgent(**p) for p in agent_init_params]
        self.pol_dev = "cpu"
        self.critic_dev = "cpu"

    def prep_training(self, device="gpu"):
        fn = (lambda m: m.to("cuda:0")) if device == "gpu" else (lambda m: m.to("cpu"))
        if not self.pol_dev == device:
            for a in self.agents:
                fn(a.policy)
            self.pol_dev = device
        if not self.critic_dev == device:
            for a in self.agents:
                fn(a.critic)
            self.critic_dev = device

    def prep_rollouts(self, device="cpu"):
        fn = (lambda m: m.to("cuda:0")) if device == "gpu" else (lambda m: m.to("cpu"))
        if not self.pol_dev == device:
            for a in self.agents:
                fn(a.policy)
            self.pol_dev = device

    def step(self, observations, explore=False):
        return [a.step(obs, explore=explore) for a, obs in zip(self.agents, observations)]

n_agents, obs_dim, act_dim, n_rollout_threads = 3, 18, 5, 1
maddpg = MADDPG([{"num_in_pol": obs_dim, "num_out_pol": act_dim,
                  "num_in_critic": n_agents * (obs_dim + act_dim)} for _ in range(n_agents)])
maddpg.prep_training(device="gpu")          # after the previous update
obs = np.random.randn(n_rollout_threads, n_agents, obs_dim)
'''
CELL = '''
maddpg.prep_rollouts(device="cpu")
torch_obs = [torch.Tensor(np.vstack(obs[:, i])) for i in range(n_agents)]
torch_agent_actions = maddpg.step(torch_obs, explore=True)
print([a.device for a in torch_agent_actions], next(maddpg.agents[0].critic.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
