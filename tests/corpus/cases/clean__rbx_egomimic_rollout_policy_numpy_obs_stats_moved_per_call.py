"""Look-alike: EgoMimic/robomimic `RolloutPolicy`: the observation-normalisation stats stay a numpy dict in the wrapper and are turned into device tensors on every call.

Source: https://github.com/swati-gupta-tri-global/EgoMimic (egomimic/algo/algo.py, RolloutPolicy._prepare_observation / __call__)
`RolloutPolicy(policy, obs_normalization_stats=...)` keeps the stats from the training dataset as numpy
arrays, outside any module. `_prepare_observation` converts the env observation with `to_tensor`,
`to_batch`, `to_device(ob, self.policy.device)`, `to_float`, then builds
`obs_normalization_stats = to_float(to_device(to_tensor(self.obs_normalization_stats), self.policy.device))`
and normalises with `ObsUtils.normalize_batch`, keeping only `all_obs_keys`. The algo's `nets` were moved
with the algo's device. Stand-ins: TensorUtils/ObsUtils helpers as small functions, the BC algo with a
ModuleDict of one MLP policy; the cell runs `__call__` up to `get_action` (its final `to_numpy` is not
simulated).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn

class TensorUtils:
    @staticmethod
    def _map(x, fn):
        if isinstance(x, dict):
            return {k: TensorUtils._map(v, fn) for k, v in x.items()}
        return fn(x)

    @staticmethod
    def to_tensor(x):
        return TensorUtils._map(x, lambda v: torch.from_numpy(v) if isinstance(v, np.ndarray) else v)

    @staticmethod
    def to_batch(x):
        return TensorUtils._map(x, lambda v: v[None])

    @staticmethod
    def to_device(x, device):
        return TensorUtils._map(x, lambda v: v.to(device))

    @staticmethod
    def to_float(x):
        return TensorUtils._map(x, lambda v: v.float())

class ObsUtils:
    @staticmethod
    def normalize_batch(batch, obs_normalization_stats):
        return {k: (v - obs_normalization_stats[k]["mean"]) / obs_normalization_stats[k]["std"]
                for k, v in batch.items()}

class BC(nn.Module):
    def __init__(self, obs_key_shapes, ac_dim, global_config, device):
        super().__init__()
        self.global_config = global_config
        self.device = device
        in_dim = sum(s[0] for s in obs_key_shapes.values())
        self.nets = nn.ModuleDict({"policy": nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, ac_dim))})
        self.nets = self.nets.float().to(self.device)

    def set_eval(self):
        self.nets.eval()

    def reset(self):
        pass

    def get_action(self, obs_dict, goal_dict=None):
        assert not self.nets.training
        x = torch.cat([obs_dict[k] for k in self.global_config.all_obs_keys], dim=-1)
        return self.nets["policy"](x)

class RolloutPolicy(object):
    def __init__(self, policy, obs_normalization_stats=None):
        self.policy = policy
        self.obs_normalization_stats = obs_normalization_stats

    def start_episode(self):
        self.policy.set_eval()
        self.policy.reset()

    def _prepare_observation(self, ob):
        ob = TensorUtils.to_tensor(ob)
        ob = TensorUtils.to_batch(ob)
        ob = TensorUtils.to_device(ob, self.policy.device)
        ob = TensorUtils.to_float(ob)
        if self.obs_normalization_stats is not None:
            obs_normalization_stats = TensorUtils.to_float(
                TensorUtils.to_device(
                    TensorUtils.to_tensor(self.obs_normalization_stats),
                    self.policy.device,
                )
            )
            ob = {k: ob[k] for k in self.policy.global_config.all_obs_keys}
            ob = ObsUtils.normalize_batch(ob, obs_normalization_stats=obs_normalization_stats)
        return ob

obs_key_shapes = {"robot0_eef_pos": (3,), "robot0_eef_quat": (4,), "robot0_gripper_qpos": (2,), "object": (10,)}
global_config = SimpleNamespace(all_obs_keys=list(obs_key_shapes))
device = torch.device("cuda:0")
model = BC(obs_key_shapes, ac_dim=7, global_config=global_config, device=device)
rng = np.random.default_rng(0)
obs_normalization_stats = {k: {"mean": rng.normal(size=(1,) + s), "std": np.ones((1,) + s)} for k, s in obs_key_shapes.items()}
policy = RolloutPolicy(model, obs_normalization_stats=obs_normalization_stats)
policy.start_episode()
ob_dict = {k: rng.normal(size=s) for k, s in obs_key_shapes.items()}
ob_dict["agentview_image"] = rng.integers(0, 255, (84, 84, 3)).astype(np.uint8)   # extra env key, dropped
'''
CELL = '''
with torch.no_grad():
    ob = policy._prepare_observation(ob_dict)
    ac = policy.policy.get_action(obs_dict=ob, goal_dict=None)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
