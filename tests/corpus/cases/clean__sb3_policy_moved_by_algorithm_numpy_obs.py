"""Look-alike: an SB3-style algorithm builds its policy on the CPU, moves it, and predicts from numpy observations.

Source: https://github.com/DLR-RM/stable-baselines3/issues/1957
Digging into a device error, the reporter noted how SB3 places a policy: "the policy is made on the
cpu and then shifted to the device selected in the on policy algorithm class"
(`self.policy = self.policy.to(self.device)`), and `predict` converts the numpy observation with
`th.as_tensor(observation).to(self.device)`. That normal flow (no gSDE here) is right: the
environment's observation stays a CPU numpy array in the namespace while the policy is on the GPU;
nothing to report. Stand-in: minimal `ActorCriticPolicy` and `PPO` keeping those two steps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, net_arch=(64, 64)):
        super().__init__()
        layers, last = [], obs_dim
        for size in net_arch:
            layers += [nn.Linear(last, size), nn.Tanh()]
            last = size
        self.obs_dim = obs_dim
        self.mlp_extractor = nn.Sequential(*layers)
        self.action_net = nn.Linear(last, n_actions)
        self.value_net = nn.Linear(last, 1)

    @property
    def device(self):
        return next(self.parameters()).device

    def predict(self, observation, deterministic=True):
        observation = th.as_tensor(observation).reshape(-1, self.obs_dim).to(self.device)
        with th.no_grad():
            logits = self.action_net(self.mlp_extractor(observation.float()))
        return th.argmax(logits, dim=1)

class PPO:
    def __init__(self, policy_class, obs_dim, n_actions, device="cuda:0"):
        self.device = th.device(device)
        self.policy = policy_class(obs_dim, n_actions)
        self.policy = self.policy.to(self.device)

    def predict(self, observation, deterministic=True):
        return self.policy.predict(observation, deterministic)

model = PPO(ActorCriticPolicy, obs_dim=4, n_actions=2, device="cuda:0")
obs = np.random.randn(4).astype(np.float32)     # env.reset() of CartPole-v1
'''
CELL = '''
action = model.predict(obs, deterministic=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
