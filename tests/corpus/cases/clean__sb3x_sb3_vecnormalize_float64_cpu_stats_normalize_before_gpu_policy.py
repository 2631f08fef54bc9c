"""Look-alike: SB3's VecNormalize keeps float64 running statistics on the host and normalises before a GPU policy predicts.

Source: https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/common/vec_env/vec_normalize.py
(`normalize_obs`: `np.clip((obs - obs_rms.mean) / np.sqrt(obs_rms.var + self.epsilon), -clip_obs, clip_obs)`
then `.astype(np.float32)`) with `RunningMeanStd` (float64 `mean`/`var`, stable_baselines3/common/
running_mean_std.py) and `BasePolicy.predict` (`obs_as_tensor(observation, self.device)`). The
statistics are float64 numpy arrays on the CPU and the raw MuJoCo observation is float64, next to a
float32 policy on cuda; normalisation happens in numpy and returns float32, the tensor is made on the
policy's device. Nothing to report. Stand-in: those pieces, reduced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

class RunningMeanStd:
    def __init__(self, epsilon=1e-4, shape=()):
        self.mean = np.zeros(shape, np.float64)
        self.var = np.ones(shape, np.float64)
        self.count = epsilon

    def update(self, arr):
        batch_mean, batch_var, batch_count = np.mean(arr, axis=0), np.var(arr, axis=0), arr.shape[0]
        delta = batch_mean - self.mean
        tot_count = self.count + batch_count
        new_mean = self.mean + delta * batch_count / tot_count
        m_2 = self.var * self.count + batch_var * batch_count + np.square(delta) * self.count * batch_count / tot_count
        self.mean, self.var, self.count = new_mean, m_2 / tot_count, tot_count

class VecNormalize:
    def __init__(self, obs_dim, clip_obs=10.0, epsilon=1e-8):
        self.obs_rms = RunningMeanStd(shape=(obs_dim,))
        self.clip_obs, self.epsilon = clip_obs, epsilon
        self.norm_obs = True

    def _normalize_obs(self, obs, obs_rms):
        return np.clip((obs - obs_rms.mean) / np.sqrt(obs_rms.var + self.epsilon), -self.clip_obs, self.clip_obs)

    def normalize_obs(self, obs):
        obs_ = obs.copy()
        if self.norm_obs:
            obs_ = self._normalize_obs(obs, self.obs_rms).astype(np.float32)
        return obs_

def obs_as_tensor(obs, device):
    return th.as_tensor(obs, device=device)

class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim):
        super().__init__()
        self.mlp_extractor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.action_net = nn.Linear(64, action_dim)

    @property
    def device(self):
        return next(self.parameters()).device

    def predict(self, observation, deterministic=True):
        obs_tensor = obs_as_tensor(observation, self.device)
        with th.no_grad():
            return self.action_net(self.mlp_extractor(obs_tensor.float()))

policy = ActorCriticPolicy(obs_dim=17, action_dim=6).to("cuda:0")     # HalfCheetah-v4
venv = VecNormalize(obs_dim=17)
rng = np.random.default_rng(0)
venv.obs_rms.update(rng.standard_normal((1000, 17)) * 3.0 + 1.0)       # statistics gathered while training
raw_obs = rng.standard_normal((1, 17))                                  # float64 observation from MuJoCo
'''
CELL = '''
obs = venv.normalize_obs(raw_obs)
actions = policy.predict(obs, deterministic=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
