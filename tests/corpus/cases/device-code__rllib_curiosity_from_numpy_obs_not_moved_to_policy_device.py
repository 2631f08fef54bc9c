"""RLlib Curiosity exploration (PPO on a GPU): the observations go into the feature net straight from numpy.

Source: https://github.com/ray-project/ray/pull/24880
"PPO with curiosity and Torch, on a machine with at least one available GPU" raised "Expected all
tensors to be on the same device, cuda:0 and cpu": `Curiosity._postprocess_torch` feeds
`torch.cat([torch.from_numpy(sample_batch[OBS]), torch.from_numpy(sample_batch[NEXT_OBS])])` to
`self.model._curiosity_feature_net`, which lives on `policy.device`; the fix adds `.to(policy.device)`.
Policy, model and SlimFC nets are small stand-ins; the write-back of the intrinsic reward into the
numpy batch (`.cpu().numpy()`, which the simulator cannot run) is left out.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SampleBatch:
    OBS, NEXT_OBS, ACTIONS, REWARDS = "obs", "new_obs", "actions", "rewards"

class FeatureNet(nn.Module):
    def __init__(self, obs_dim, feature_dim):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(obs_dim, feature_dim), nn.ReLU())

    def forward(self, input_dict):
        return self.fc(input_dict[SampleBatch.OBS]), []

class Curiosity:
    def __init__(self, model, num_actions, feature_dim=16, eta=1.0, beta=0.2):
        self.model, self.num_actions, self.eta, self.beta = model, num_actions, eta, beta
        self.model._curiosity_feature_net = FeatureNet(4, feature_dim)
        self.model._curiosity_inverse_fcnet = nn.Linear(2 * feature_dim, num_actions)
        self.model._curiosity_forward_fcnet = nn.Linear(feature_dim + num_actions, feature_dim)

    def postprocess_trajectory(self, policy, sample_batch, tf_sess=None):
        return self._postprocess_torch(policy, sample_batch)

    def _postprocess_torch(self, policy, sample_batch):
        # Push both observations through feature net to get both phis.
        phis, _ = self.model._curiosity_feature_net({
            SampleBatch.OBS: torch.cat([
                torch.from_numpy(sample_batch[SampleBatch.OBS]),
                torch.from_numpy(sample_batch[SampleBatch.NEXT_OBS])
            ])
        })
        phi, next_phi = torch.chunk(phis, 2)
        actions_tensor = torch.from_numpy(sample_batch[SampleBatch.ACTIONS]).long().to(policy.device)
        one_hot = torch.zeros(actions_tensor.shape[0], self.num_actions,
                              device=policy.device).scatter_(1, actions_tensor.unsqueeze(1), 1.0)
        predicted_next_phi = self.model._curiosity_forward_fcnet(torch.cat([phi, one_hot], dim=-1))
        forward_l2_norm_sqared = 0.5 * torch.sum(torch.pow(predicted_next_phi - next_phi, 2.0), dim=-1)
        forward_loss = torch.mean(forward_l2_norm_sqared)
        dist_inputs = self.model._curiosity_inverse_fcnet(torch.cat([phi, next_phi], dim=-1))
        inverse_loss = nn.functional.cross_entropy(dist_inputs, actions_tensor)
        return (1.0 - self.beta) * inverse_loss + self.beta * forward_loss

class PolicyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Linear(4, 2)
        self.vf = nn.Linear(4, 1)

class PPOTorchPolicy:
    def __init__(self, device):
        self.device = device
        self.model = PolicyModel()
        self.exploration = Curiosity(self.model, num_actions=2)
        self.model.to(self.device)

policy = PPOTorchPolicy(torch.device("cuda:0"))
rng = np.random.default_rng(0)
sample_batch = {SampleBatch.OBS: rng.standard_normal((8, 4)).astype(np.float32),
                SampleBatch.NEXT_OBS: rng.standard_normal((8, 4)).astype(np.float32),
                SampleBatch.ACTIONS: rng.integers(0, 2, size=8),
                SampleBatch.REWARDS: np.zeros(8, dtype=np.float32)}
'''
CELL = '''
icm_loss = policy.exploration.postprocess_trajectory(policy, sample_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.exploration"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                torch.from_numpy(sample_batch[SampleBatch.OBS]),
                torch.from_numpy(sample_batch[SampleBatch.NEXT_OBS])
            ])""", """                torch.from_numpy(sample_batch[SampleBatch.OBS]).to(policy.device),
                torch.from_numpy(sample_batch[SampleBatch.NEXT_OBS]).to(policy.device)
            ])""")
CLEAN = False
