"""Look-alike: an on-policy rollout that keeps its buffer on the CPU (`.cpu()`) and moves the batch back for the loss.

Source: https://github.com/HumanCompatibleAI/imitation/pull/828
The discussion around `bc.py`: observations and actions must both be turned into tensors on the
policy's device (`util.safe_to_tensor(batch["acts"], device=self.policy.device)`) before
`evaluate_actions`. Here the policy is on the GPU, the environment takes NumPy observations, the
rollout buffer holds CPU copies, and the training batch is moved back to the policy's device.
Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

    @property
    def device(self):
        return next(self.parameters()).device

    def evaluate_actions(self, obs, actions):
        latent = self.mlp_extractor(obs)
        log_pmf = self.action_net(latent).log_softmax(-1)
        log_prob = log_pmf.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
        return self.value_net(latent), log_prob, -(log_pmf.exp() * log_pmf).sum(-1)

def env_step(action):
    return np.random.randn(4).astype(np.float32), 1.0, False

policy = ActorCriticPolicy().to(th.device("cuda:0"))
obs = np.random.randn(4).astype(np.float32)
buffer_obs, buffer_acts = [], []
'''
CELL = '''
for _ in range(8):
    obs_t = th.as_tensor(obs).unsqueeze(0).to(policy.device)
    logits = policy.action_net(policy.mlp_extractor(obs_t))
    action = logits.argmax(-1)
    buffer_obs.append(obs)
    buffer_acts.append(action.cpu())
    obs, reward, done = env_step(action.cpu())
obs_tensor = th.as_tensor(np.stack(buffer_obs)).to(policy.device)
acts = th.cat(buffer_acts).to(policy.device)
_, log_prob, entropy = policy.evaluate_actions(obs_tensor, acts)
loss = -log_prob.mean() - 1e-3 * entropy.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
