"""Look-alike: imitation GAIL discriminator step: the expert/generator numpy batch (int64 discrete actions, bool dones, int labels) goes through `reward_net.preprocess` and `_torchify_array` onto the reward net's device, and the labels are cast with `.float()` for the BCE loss.

Source: https://github.com/HumanCompatibleAI/imitation (src/imitation/algorithms/adversarial/common.py:
_make_disc_train_batches, _torchify_array, train_disc; src/imitation/algorithms/adversarial/gail.py:
logits_expert_is_high; src/imitation/rewards/reward_nets.py: RewardNet.preprocess, BasicRewardNet)
The discriminator minibatch is built with numpy: observations, discrete actions (int64), bool
dones and `labels_expert_is_one` (`np.ones(..., dtype=int)` / `np.zeros`). `RewardNet.preprocess`
moves each array to `self.device` and applies SB3's `preprocess_obs` (Box: `.float()`; Discrete:
`F.one_hot(x.long(), n).float()`), casting dones with `.to(th.float32)`; the labels go through
`th.as_tensor(ndarray, device=self.reward_train.device)` and `train_disc` passes
`batch["labels_expert_is_one"].float()` to `F.binary_cross_entropy_with_logits`. Stand-ins: SB3's
`preprocess_obs` for Box/Discrete spaces, small `Box`/`Discrete` space classes, `BasicRewardNet`
with its MLP, and a trainer object holding the reward net; the generator log-probs (unused by GAIL)
and the backward/optimizer step are left out (no autograd on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn
import torch.nn.functional as F


class Box:
    def __init__(self, shape):
        self.shape = shape


class Discrete:
    def __init__(self, n):
        self.n, self.shape = n, ()


def preprocess_obs(obs, observation_space, normalize_images=True):   # stable_baselines3.common.preprocessing
    if isinstance(observation_space, Box):
        return obs.float()
    if isinstance(observation_space, Discrete):
        return F.one_hot(obs.long(), num_classes=int(observation_space.n)).float()
    raise NotImplementedError


def safe_to_tensor(array, **kwargs):
    if isinstance(array, np.ndarray) and not array.flags.writeable:
        array = array.copy()
    return th.as_tensor(array, **kwargs)


class BasicRewardNet(nn.Module):
    def __init__(self, observation_space, action_space, hid_sizes=(32, 32), normalize_images=True):
        super().__init__()
        self.observation_space, self.action_space = observation_space, action_space
        self.normalize_images = normalize_images
        in_size = 2 * int(np.prod(observation_space.shape)) + action_space.n + 1
        layers = []
        for h in hid_sizes:
            layers += [nn.Linear(in_size, h), nn.ReLU()]
            in_size = h
        layers.append(nn.Linear(in_size, 1))
        self.mlp = nn.Sequential(*layers)

    @property
    def device(self):
        return next(self.parameters()).device

    def preprocess(self, state, action, next_state, done):
        state_th = safe_to_tensor(state).to(self.device)
        action_th = safe_to_tensor(action).to(self.device)
        next_state_th = safe_to_tensor(next_state).to(self.device)
        done_th = safe_to_tensor(done).to(self.device)
        state_th = preprocess_obs(state_th, self.observation_space, self.normalize_images)
        action_th = preprocess_obs(action_th, self.action_space, self.normalize_images)
        next_state_th = preprocess_obs(next_state_th, self.observation_space, self.normalize_images)
        done_th = done_th.to(th.float32)
        return state_th, action_th, next_state_th, done_th

    def forward(self, state, action, next_state, done):
        inputs = [th.flatten(state, 1), th.flatten(action, 1), th.flatten(next_state, 1),
                  th.reshape(done, [-1, 1])]
        return self.mlp(th.cat(inputs, dim=1)).squeeze(-1)


class GAIL:
    def __init__(self, reward_net, demo_minibatch_size):
        self._reward_net = reward_net
        self.demo_minibatch_size = demo_minibatch_size

    @property
    def reward_train(self):
        return self._reward_net

    def _torchify_array(self, ndarray):
        if ndarray is not None:
            return th.as_tensor(ndarray, device=self.reward_train.device)
        return None

    def logits_expert_is_high(self, state, action, next_state, done, log_policy_act_prob=None):
        logits = self._reward_net(state, action, next_state, done)
        assert logits.shape == state.shape[:1]
        return logits

    def make_disc_batch(self, expert_batch, gen_batch):
        obs = np.concatenate([expert_batch["obs"], gen_batch["obs"]])
        acts = np.concatenate([expert_batch["acts"], gen_batch["acts"]])
        next_obs = np.concatenate([expert_batch["next_obs"], gen_batch["next_obs"]])
        dones = np.concatenate([expert_batch["dones"], gen_batch["dones"]])
        labels_expert_is_one = np.concatenate([np.ones(self.demo_minibatch_size, dtype=int),
                                               np.zeros(self.demo_minibatch_size, dtype=int)])
        obs_th, acts_th, next_obs_th, dones_th = self.reward_train.preprocess(obs, acts, next_obs, dones)
        return {"state": obs_th, "action": acts_th, "next_state": next_obs_th, "done": dones_th,
                "labels_expert_is_one": self._torchify_array(labels_expert_is_one),
                "log_policy_act_prob": None}


def sample(rng, n, obs_dim, n_actions):
    return {"obs": rng.standard_normal((n, obs_dim)).astype(np.float32),
            "acts": rng.integers(0, n_actions, size=n),
            "next_obs": rng.standard_normal((n, obs_dim)).astype(np.float32),
            "dones": rng.random(n) < 0.05}


rng = np.random.default_rng(0)
venv_observation_space, venv_action_space = Box((4,)), Discrete(2)
reward_net = BasicRewardNet(venv_observation_space, venv_action_space).to("cuda:0")
gail_trainer = GAIL(reward_net, demo_minibatch_size=64)
expert_samples = sample(rng, 64, 4, 2)
gen_samples = sample(rng, 64, 4, 2)
'''
CELL = '''
batch = gail_trainer.make_disc_batch(expert_samples, gen_samples)
disc_logits = gail_trainer.logits_expert_is_high(
    batch["state"], batch["action"], batch["next_state"], batch["done"], batch["log_policy_act_prob"])
loss = F.binary_cross_entropy_with_logits(disc_logits, batch["labels_expert_is_one"].float())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
