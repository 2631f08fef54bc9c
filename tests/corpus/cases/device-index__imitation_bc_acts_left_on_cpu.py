"""Behaviour cloning on cuda: the observations are moved to the policy's device, the discrete actions are not.

Source: https://github.com/HumanCompatibleAI/imitation/issues/820
`bc_trainer.train()` raised inside `Categorical.log_prob` at `log_pmf.gather(-1, value)`
("when checking argument for argument index in method wrapper_CUDA_gather"): `obs_tensor` was on
the policy's GPU while `acts` stayed on the CPU (PR #828's discussion: "`tensor_obs` is on device
`auto` which assigns it to a GPU, but `acts` is on the CPU"). The action indices must be on the
logits' device. Stand-in: an SB3-style actor-critic policy (Categorical.log_prob reduced to its gather) and
the BC loss step.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.mlp_extractor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.action_net = nn.Linear(64, n_actions)
        self.value_net = nn.Linear(64, 1)

    def evaluate_actions(self, obs, actions):
        latent = self.mlp_extractor(obs)
        log_pmf = self.action_net(latent).log_softmax(-1)          # Categorical(logits=...)
        log_prob = log_pmf.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)   # .log_prob
        entropy = -(log_pmf.exp() * log_pmf).sum(-1)
        return self.value_net(latent), log_prob, entropy

device = th.device("cuda:0")
policy = ActorCriticPolicy().to(device)
batch = {"obs": np.random.randn(32, 4).astype(np.float32),
         "acts": np.random.randint(0, 2, size=32)}
obs_tensor = th.as_tensor(batch["obs"]).to(device)
acts = th.as_tensor(batch["acts"])
'''
CELL = '''
_, log_prob, entropy = policy.evaluate_actions(obs_tensor, acts)
loss = -log_prob.mean() - 1e-3 * entropy.mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["acts"]
FIX = "namespace"
REFERENCE_FIX = '''
acts = acts.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
