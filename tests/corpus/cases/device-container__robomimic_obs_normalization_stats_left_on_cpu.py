"""robomimic observation normalization: the per-key mean/std stats stay on the CPU while the training batch is on the GPU.

Source: https://github.com/ARISE-Initiative/robomimic/pull/81
"fix obs norm ... we were not sending the obs normalization stats to GPU": with
`hdf5_normalize_obs` on, `postprocess_batch_for_training` normalized the GPU batch with
`ObsUtils.normalize_obs(batch["obs"], obs_normalization_stats=...)`, whose `mean`/`std` entries were
CPU tensors built from the dataset; the fix moves them with
`TensorUtils.to_device(..., self.device)` first. Stand-ins: the dict-of-dicts stats as
`SequenceDataset.get_obs_normalization_stats()` returns them (converted with to_tensor), robomimic's
normalize_obs, and a BC policy's low-dim encoder on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

def normalize_obs(obs_dict, obs_normalization_stats):
    obs_dict = dict(obs_dict)
    for m in obs_normalization_stats:
        mean = obs_normalization_stats[m]["mean"]
        std = obs_normalization_stats[m]["std"]
        obs_dict[m] = (obs_dict[m] - mean) / std
    return obs_dict

obs_keys = ["robot0_eef_pos", "robot0_eef_quat", "robot0_gripper_qpos", "object"]
dims = {"robot0_eef_pos": 3, "robot0_eef_quat": 4, "robot0_gripper_qpos": 2, "object": 10}
device = torch.device("cuda:0")

# dataset.get_obs_normalization_stats(), then TensorUtils.to_tensor: CPU tensors of shape [1, D]
obs_normalization_stats = {k: {"mean": torch.zeros(1, d), "std": torch.ones(1, d)} for k, d in dims.items()}

policy = nn.Sequential(nn.Linear(sum(dims.values()), 1024), nn.ReLU(), nn.Linear(1024, 7)).to(device)
batch = {"obs": {k: torch.randn(100, d) for k, d in dims.items()}, "actions": torch.randn(100, 7)}
batch = {"obs": {k: v.to(device) for k, v in batch["obs"].items()}, "actions": batch["actions"].to(device)}
'''
CELL = '''
batch["obs"] = normalize_obs(batch["obs"], obs_normalization_stats=obs_normalization_stats)
actions = policy(torch.cat([batch["obs"][k] for k in obs_keys], dim=-1))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["obs_normalization_stats"]
FIX = "namespace"
REFERENCE_FIX = '''
obs_normalization_stats = {k: {s: v.to(device) for s, v in d.items()} for k, d in obs_normalization_stats.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
