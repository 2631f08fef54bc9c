"""Look-alike: robomimic's RolloutPolicy takes float64 numpy env observations and numpy normalization stats and converts both on the policy's device.

Source: https://github.com/ARISE-Initiative/robomimic/blob/d309eaecc18acf4152a830a895a6984b8ac71b05/robomimic/algo/algo.py
`RolloutPolicy._prepare_observation` runs `TensorUtils.to_tensor` (torch.from_numpy keeps float64),
`to_batch`, `to_device(ob, self.policy.device)` and only then `to_float`; the dataset's
`obs_normalization_stats` (numpy, float64) get the same treatment
(`to_float(to_device(to_tensor(stats), self.policy.device))`) before `ObsUtils.normalize_dict` computes
`(obs - offset) / scale`. Doubles and CPU arrays on the way in, float32 on the GPU by the time the BC MLP
sees them. Stand-ins: `TensorUtils` / `ObsUtils.normalize_dict` copied (reduced), BC reduced to an MLP
policy net; the cell runs the two steps of `RolloutPolicy.__call__` (the final `to_numpy` is left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import collections
import numpy as np
import torch
from torch import nn


class TensorUtils:
    @staticmethod
    def recursive_dict_list_tuple_apply(x, type_func_dict):
        if isinstance(x, (dict, collections.OrderedDict)):
            new_x = collections.OrderedDict() if isinstance(x, collections.OrderedDict) else dict()
            for k, v in x.items():
                new_x[k] = TensorUtils.recursive_dict_list_tuple_apply(v, type_func_dict)
            return new_x
        elif isinstance(x, (list, tuple)):
            ret = [TensorUtils.recursive_dict_list_tuple_apply(v, type_func_dict) for v in x]
            return tuple(ret) if isinstance(x, tuple) else ret
        for t, f in type_func_dict.items():
            if isinstance(x, t):
                return f(x)
        raise NotImplementedError("Cannot handle data type %s" % str(type(x)))

    @staticmethod
    def to_tensor(x):
        return TensorUtils.recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x: x, np.ndarray: lambda x: torch.from_numpy(x), type(None): lambda x: x})

    @staticmethod
    def to_batch(x):
        return TensorUtils.recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x: x[None, ...], np.ndarray: lambda x: x[None, ...], type(None): lambda x: x})

    @staticmethod
    def to_device(x, device):
        return TensorUtils.recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x, d=device: x.to(d), type(None): lambda x: x})

    @staticmethod
    def to_float(x):
        return TensorUtils.recursive_dict_list_tuple_apply(
            x, {torch.Tensor: lambda x: x.float(), np.ndarray: lambda x: x.astype(np.float32),
                type(None): lambda x: x})


class ObsUtils:
    @staticmethod
    def normalize_dict(dict, normalization_stats):
        assert set(dict.keys()).issubset(normalization_stats)
        for m in dict:
            offset = normalization_stats[m]["offset"][0]
            scale = normalization_stats[m]["scale"][0]
            o_num_dims = len(offset.shape)
            shape_len_diff = len(offset.shape) - o_num_dims
            assert dict[m].shape[-o_num_dims:] == offset.shape, "shape mismatch in @normalize_obs"
            reshape_padding = tuple([1] * shape_len_diff)
            offset = offset.reshape(reshape_padding + tuple(offset.shape))
            scale = scale.reshape(reshape_padding + tuple(scale.shape))
            dict[m] = (dict[m] - offset) / scale
        return dict


class BC(nn.Module):
    """robomimic.algo.bc.BC, reduced: nets["policy"] is an MLP over concatenated low-dim obs."""
    def __init__(self, obs_keys, obs_dim, ac_dim, device):
        super().__init__()
        self.device = device
        self.obs_keys = obs_keys
        self.global_config = type("Cfg", (), {"all_obs_keys": obs_keys})()
        self.nets = nn.ModuleDict({"policy": nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, ac_dim))})
        self.nets.to(device)

    def get_action(self, obs_dict, goal_dict=None):
        assert not self.nets.training
        x = torch.cat([obs_dict[k] for k in self.obs_keys], dim=-1)
        return torch.tanh(self.nets["policy"](x))


class RolloutPolicy:
    def __init__(self, policy, obs_normalization_stats=None):
        self.policy = policy
        self.obs_normalization_stats = obs_normalization_stats

    def start_episode(self):
        self.policy.nets.eval()

    def _prepare_observation(self, ob, batched_ob=False):
        ob = TensorUtils.to_tensor(ob)
        if not batched_ob:
            ob = TensorUtils.to_batch(ob)
        ob = TensorUtils.to_device(ob, self.policy.device)
        ob = TensorUtils.to_float(ob)
        if self.obs_normalization_stats is not None:
            obs_normalization_stats = TensorUtils.to_float(TensorUtils.to_device(
                TensorUtils.to_tensor(self.obs_normalization_stats), self.policy.device))
            ob = {k: ob[k] for k in self.policy.global_config.all_obs_keys}
            ob = ObsUtils.normalize_dict(ob, normalization_stats=obs_normalization_stats)
        return ob


obs_keys = ["robot0_eef_pos", "robot0_eef_quat", "robot0_gripper_qpos", "object"]
device = torch.device("cuda:0")
model = BC(obs_keys, obs_dim=3 + 4 + 2 + 10, ac_dim=7, device=device)
obs_normalization_stats = {
    "robot0_eef_pos": {"offset": np.zeros((1, 3)), "scale": np.ones((1, 3))},
    "robot0_eef_quat": {"offset": np.zeros((1, 4)), "scale": np.ones((1, 4))},
    "robot0_gripper_qpos": {"offset": np.zeros((1, 2)), "scale": np.ones((1, 2))},
    "object": {"offset": np.zeros((1, 10)), "scale": np.ones((1, 10))},
}
policy = RolloutPolicy(model, obs_normalization_stats=obs_normalization_stats)
policy.start_episode()
obs = {
    "robot0_eef_pos": np.array([0.1, -0.05, 1.0]),
    "robot0_eef_quat": np.array([0.0, 1.0, 0.0, 0.0]),
    "robot0_gripper_qpos": np.array([0.02, -0.02]),
    "object": np.random.randn(10),
    "robot0_joint_pos": np.zeros(7),
}
'''
CELL = '''
ob = policy._prepare_observation(obs)
ac = policy.policy.get_action(obs_dict=ob)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
