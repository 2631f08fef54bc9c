"""imitation preference comparisons with a discount factor: `PreferenceModel.probability` builds its discounts with `th.arange` on the CPU.

Source: https://github.com/HumanCompatibleAI/imitation/pull/636
"#619 fix discounting device mismatch": with a reward network on the GPU and `discount_factor` < 1,
`PreferenceModel.probability` computed `discounts = self.discount_factor ** th.arange(len(rews1))`,
a CPU tensor, and multiplied it with `rews2 - rews1`, the reward net's outputs on the GPU. The fix
creates the arange on `rews1.device` (and asserts both reward tensors share it). Stand-ins:
`BasicRewardNet` (an MLP over obs/act/next_obs with `preprocess` moving numpy batches to the net's
device), `rollout.flatten_trajectories`, and `PreferenceModel` without the ensemble branch; the
per-pair probabilities are stacked instead of written into a preallocated CPU tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import dataclasses
import numpy as np
import torch as th
from torch import nn


@dataclasses.dataclass(frozen=True)
class Trajectory:
    obs: np.ndarray
    acts: np.ndarray
    infos: object
    terminal: bool


@dataclasses.dataclass(frozen=True)
class Transitions:
    obs: np.ndarray
    acts: np.ndarray
    next_obs: np.ndarray
    dones: np.ndarray


def flatten_trajectories(trajectories):                  # imitation.data.rollout
    obs, acts, next_obs, dones = [], [], [], []
    for traj in trajectories:
        obs.append(traj.obs[:-1]); next_obs.append(traj.obs[1:]); acts.append(traj.acts)
        d = np.zeros(len(traj.acts), dtype=bool)
        d[-1] = traj.terminal
        dones.append(d)
    return Transitions(np.concatenate(obs), np.concatenate(acts), np.concatenate(next_obs),
                       np.concatenate(dones))


class BasicRewardNet(nn.Module):                          # imitation.rewards.reward_nets
    def __init__(self, obs_dim, act_dim, hid_sizes=(32, 32)):
        super().__init__()
        layers, in_size = [], 2 * obs_dim + act_dim + 1
        for h in hid_sizes:
            layers += [nn.Linear(in_size, h), nn.ReLU()]
            in_size = h
        layers.append(nn.Linear(in_size, 1))
        self.mlp = nn.Sequential(*layers)

    @property
    def device(self):
        return next(self.parameters()).device

    def preprocess(self, state, action, next_state, done):
        to_th = lambda a: th.from_numpy(np.asarray(a, dtype=np.float32)).to(self.device)
        return to_th(state), to_th(action), to_th(next_state), to_th(done)

    def forward(self, state, action, next_state, done):
        inputs = th.cat([state, action, next_state, done[:, None]], dim=1)
        return self.mlp(inputs).squeeze(-1)


class PreferenceModel(nn.Module):
    """Class to convert two fragments' rewards into preference probability."""

    def __init__(self, model, noise_prob=0.0, discount_factor=1.0, threshold=50):
        super().__init__()
        self.model = model
        self.noise_prob = noise_prob
        self.discount_factor = discount_factor
        self.threshold = threshold
        self.ensemble_model = None

    def forward(self, fragment_pairs):
        probs = []
        for frag1, frag2 in fragment_pairs:
            trans1 = flatten_trajectories([frag1])
            trans2 = flatten_trajectories([frag2])
            rews1 = self.rewards(trans1)
            rews2 = self.rewards(trans2)
            probs.append(self.probability(rews1, rews2))
        return th.stack(probs), None

    def rewards(self, transitions):
        preprocessed = self.model.preprocess(transitions.obs, transitions.acts,
                                             transitions.next_obs, transitions.dones)
        rews = self.model(*preprocessed)
        assert rews.shape == (len(transitions.obs),)
        return rews

    def probability(self, rews1, rews2):
        if self.discount_factor == 1:
            returns_diff = (rews2 - rews1).sum(axis=0)
        else:
            discounts = self.discount_factor ** th.arange(len(rews1))
            if self.ensemble_model is not None:
                discounts = discounts.reshape(-1, 1)
            returns_diff = (discounts * (rews2 - rews1)).sum(axis=0)
        returns_diff = th.clip(returns_diff, -self.threshold, self.threshold)
        model_probability = 1 / (1 + returns_diff.exp())
        return self.noise_prob * 0.5 + (1 - self.noise_prob) * model_probability


rng = np.random.default_rng(0)
obs_dim, act_dim, fragment_length = 8, 2, 25

def random_fragment():
    return Trajectory(obs=rng.standard_normal((fragment_length + 1, obs_dim)).astype(np.float32),
                      acts=rng.standard_normal((fragment_length, act_dim)).astype(np.float32),
                      infos=None, terminal=False)

fragment_pairs = [(random_fragment(), random_fragment()) for _ in range(16)]
preferences = rng.integers(0, 2, size=16).astype(np.float32)

reward_net = BasicRewardNet(obs_dim, act_dim).to("cuda:0")
preference_model = PreferenceModel(reward_net, noise_prob=0.1, discount_factor=0.99)
'''
CELL = '''
probs, _ = preference_model(fragment_pairs)
preferences_th = th.as_tensor(preferences).to(probs.device)
loss = th.nn.functional.binary_cross_entropy(probs, preferences_th)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["preference_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("discounts = self.discount_factor ** th.arange(len(rews1))",
                  "discounts = self.discount_factor ** th.arange(len(rews1), device=rews1.device)")
CLEAN = False
