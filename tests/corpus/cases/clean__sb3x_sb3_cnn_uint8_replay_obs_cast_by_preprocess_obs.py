"""Look-alike: an SB3 DQN with a CnnPolicy gets uint8 Atari frames from its replay buffer; `preprocess_obs` casts them.

Source: https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/common/preprocessing.py
(`preprocess_obs`: `return obs.float() / 255.0` for image Box spaces) with `NatureCNN` from
stable_baselines3/common/torch_layers.py and `QNetwork.forward` from stable_baselines3/dqn/policies.py.
The replay buffer keeps observations in the space's dtype (uint8) and `DQN.train` feeds
`replay_data.observations` straight to `q_net`; the byte tensor never reaches a float32 Conv2d because
`extract_features` normalises it first, and the actions are cast with `.long()` before `th.gather`.
Nothing to report. Stand-in: those functions and classes, reduced.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

def is_image_space(shape, dtype):
    return len(shape) == 3 and dtype == np.uint8

def preprocess_obs(obs, obs_shape, obs_dtype, normalize_images=True):
    if normalize_images and is_image_space(obs_shape, obs_dtype):
        return obs.float() / 255.0
    return obs.float()

class NatureCNN(nn.Module):
    def __init__(self, n_input_channels=4, features_dim=512):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(n_input_channels, 32, kernel_size=8, stride=4, padding=0), nn.ReLU(),
            nn.Conv2d(32, 64, kernel_size=4, stride=2, padding=0), nn.ReLU(),
            nn.Conv2d(64, 64, kernel_size=3, stride=1, padding=0), nn.ReLU(),
            nn.Flatten())
        self.linear = nn.Sequential(nn.Linear(3136, features_dim), nn.ReLU())

    def forward(self, observations):
        return self.linear(self.cnn(observations))

class QNetwork(nn.Module):
    def __init__(self, obs_shape, obs_dtype, n_actions):
        super().__init__()
        self.obs_shape, self.obs_dtype = obs_shape, obs_dtype
        self.features_extractor = NatureCNN(obs_shape[0])
        self.q_net = nn.Linear(512, n_actions)

    def extract_features(self, obs):
        return self.features_extractor(preprocess_obs(obs, self.obs_shape, self.obs_dtype))

    def forward(self, obs):
        return self.q_net(self.extract_features(obs))

obs_shape, obs_dtype = (4, 84, 84), np.dtype(np.uint8)          # VecFrameStack(AtariWrapper(...)), channel-first
q_net = QNetwork(obs_shape, obs_dtype, n_actions=6)
rng = np.random.default_rng(0)
observations = th.tensor(rng.integers(0, 256, size=(32, *obs_shape), dtype=np.uint8))   # replay_data.observations
actions = th.tensor(rng.integers(0, 6, size=(32, 1)), dtype=th.int64)                    # replay_data.actions
'''
CELL = '''
current_q_values = q_net(observations)
current_q_values = th.gather(current_q_values, dim=1, index=actions.long())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
