"""imitation's BC loss on a gSDE policy: the missing entropy is replaced by `th.zeros(1)` on the CPU.

Source: https://github.com/HumanCompatibleAI/imitation/issues/870
"Device misplacement": pretraining a PPO policy with `use_sde=True` by behaviour cloning on cuda
raised at `loss = neglogp + ent_loss + l2_loss`. The policy's distribution has no closed-form
entropy, so `BehaviorCloningLossCalculator` used
`ent_loss = -self.ent_weight * (entropy if entropy is not None else th.zeros(1))`, a CPU tensor
of shape (1,). Stand-in: the loss calculator and a policy whose `evaluate_actions` returns no entropy.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch as th
from torch import nn

class SDEPolicy(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))
        self.log_std = nn.Parameter(th.zeros(act_dim))

    def evaluate_actions(self, obs, acts):
        mean = self.mu(obs)
        std = self.log_std.exp()
        log_prob = (-((acts - mean) ** 2) / (2 * std ** 2) - std.log()).sum(-1)
        return None, log_prob, None          # gSDE: no analytic entropy

class BehaviorCloningLossCalculator:
    def __init__(self, ent_weight=1e-3, l2_weight=0.0):
        self.ent_weight, self.l2_weight = ent_weight, l2_weight

    def __call__(self, policy, obs, acts):
        _, log_prob, entropy = policy.evaluate_actions(obs, acts)
        neglogp = -log_prob.mean()
        ent_loss = -self.ent_weight * (entropy.mean() if entropy is not None else th.zeros(1))
        l2_norm = sum(w.square().sum() for w in policy.parameters())
        l2_loss = self.l2_weight * l2_norm
        return neglogp + ent_loss + l2_loss

device = th.device("cuda:0")
policy = SDEPolicy().to(device)
loss_calculator = BehaviorCloningLossCalculator()
obs_tensor = th.randn(32, 6).to(device)
acts = th.randn(32, 2).to(device)
'''
CELL = '''
loss = loss_calculator(policy, obs_tensor, acts)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_calculator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("else th.zeros(1))", "else th.zeros(1, device=log_prob.device))")
CLEAN = False
