"""An SB3 policy built with `device="cuda:0"` moves its MLP extractor but not its action/value heads.

Source: https://github.com/DLR-RM/stable-baselines3/issues/111
`policies.ActorCriticPolicy(obs_space, act_space, lr_schedule, device='cuda:0')` then
`policy.predict(env.reset())` raised a device mismatch: `BasePolicy.__init__` passed `device` to the
`MlpExtractor` (which moved its own layers), but `action_net` and `value_net` were created plainly on
the CPU, while `predict` moves the observation to `self.device`. The algorithms avoid it by calling
`self.policy.to(self.device)` (the fix, PR 141, removed the policy's `device` argument). Stand-in:
a minimal `MlpExtractor`/`ActorCriticPolicy` keeping that structure, a CartPole-shaped observation.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

def get_schedule_fn(value):
    return lambda progress_remaining: value

class MlpExtractor(nn.Module):
    def __init__(self, feature_dim, net_arch=(64, 64), device="cpu"):
        super().__init__()
        policy_net, value_net, last = [], [], feature_dim
        for size in net_arch:
            policy_net += [nn.Linear(last, size), nn.Tanh()]
            value_net += [nn.Linear(last, size), nn.Tanh()]
            last = size
        self.latent_dim_pi = self.latent_dim_vf = last
        self.policy_net = nn.Sequential(*policy_net).to(device)
        self.value_net = nn.Sequential(*value_net).to(device)

    def forward(self, features):
        return self.policy_net(features), self.value_net(features)

class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, lr_schedule, device="auto"):
        super().__init__()
        self.device = th.device("cuda:0" if device == "auto" else device)
        self.obs_dim = obs_dim
        self.features_extractor = nn.Flatten()
        self.mlp_extractor = MlpExtractor(obs_dim, device=self.device)
        self.action_net = nn.Linear(self.mlp_extractor.latent_dim_pi, n_actions)
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        self.optimizer = th.optim.Adam(self.parameters(), lr=lr_schedule(1))

    def _predict(self, observation, deterministic=False):
        latent_pi, _ = self.mlp_extractor(self.features_extractor(observation.float()))
        logits = self.action_net(latent_pi)
        return th.argmax(logits, dim=1)

    def predict(self, observation, deterministic=False):
        observation = th.as_tensor(observation).reshape(-1, self.obs_dim).to(self.device)
        with th.no_grad():
            actions = self._predict(observation, deterministic=deterministic)
        return actions

policy = ActorCriticPolicy(4, 2, lr_schedule=get_schedule_fn(1e-3), device="cuda:0")
obs = np.random.randn(4).astype(np.float32)   # env.reset() of CartPole-v1
'''
CELL = '''
action = policy.predict(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.action_net"]
FIX = "namespace"
REFERENCE_FIX = '''
policy = policy.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
