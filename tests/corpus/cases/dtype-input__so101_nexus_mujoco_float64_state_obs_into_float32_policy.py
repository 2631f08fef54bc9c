"""SO101-Nexus MuJoCo envs: the flat state observation comes back as float64, so a raw forward pass through a float32 torch policy fails.

Source: https://github.com/johnsutor/so101-nexus/pull/93
"MuJoCo state observations now return float32, matching the Warp backend and torch model conventions
(previously float64, which forced .float() casts and broke raw forward passes)." The MuJoCo backend
built the state vector with `np.concatenate(parts)` from `data.qpos` / `site_xpos` (float64) and
declared a float64 Box, so `policy(torch.as_tensor(obs))` on `gym.make("MuJoCoPickLift-v1")`
multiplied a Double observation by Float weights. Stand-ins: a minimal env whose `_get_state_obs`
concatenates MuJoCo-style float64 arrays (joint positions, TCP pose, object pose) and a small MLP
policy.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SO101NexusMuJoCoBaseEnv:
    """gym.make("MuJoCoPickLift-v1", config=PickLiftConfig(observations=[JointPositions(), EndEffectorPose(), ObjectPose()]))"""
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.qpos = np.zeros(6)                      # mjData.qpos (float64)
    def _get_tcp_pose(self):
        pos = self.rng.normal(size=3)
        quat = np.zeros(4); quat[0] = 1.0
        return np.concatenate([pos, quat])
    def _get_state_obs(self):
        parts = [self.qpos.copy(), self._get_tcp_pose(), self.rng.normal(size=7)]
        return np.concatenate(parts)
    def reset(self, seed=None):
        return self._get_state_obs(), {}
    def step(self, action):
        self.qpos = self.qpos + 0.01 * np.asarray(action, dtype=np.float64)
        return self._get_state_obs(), 0.0, False, False, {}

env = SO101NexusMuJoCoBaseEnv()
policy = nn.Sequential(nn.Linear(20, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh(), nn.Linear(256, 6))
obs, info = env.reset(seed=0)
'''
CELL = '''
with torch.no_grad():
    action = policy(torch.as_tensor(obs)).numpy()
obs, reward, terminated, truncated, info = env.step(action)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["obs"]
FIX = "namespace"
REFERENCE_FIX = '''
obs = obs.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
