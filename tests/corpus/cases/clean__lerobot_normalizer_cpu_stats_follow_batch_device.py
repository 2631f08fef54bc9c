"""LeRobot processor pipeline: normalization stats are built on the CPU and follow each batch's device and dtype.

Source: https://github.com/huggingface/lerobot/pull/1880
After "Expected all tensors to be on the same device" reports with Accelerate (PR #1795), the
NormalizerProcessorStep stopped forcing inputs onto a fixed processor device: its `_tensor_stats`
are made on the CPU (device=None) and `_apply_transform` calls `self.to(device=tensor.device,
dtype=tensor.dtype)` when the incoming tensor differs; the pipeline order is Device step -> Normalizer.
So a CPU stats dict next to a cuda policy is intended, and so is the robot's CPU observation before
the preprocessor runs. Stand-in: the normalizer/unnormalizer mixin, device step and pipeline
reduced to MEAN_STD/MIN_MAX and plain dicts; a small MLP as the policy.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_tensor(stats, device=None, dtype=torch.float32):
    return {key: {name: torch.as_tensor(np.asarray(v), dtype=dtype, device=device)
                  for name, v in sub.items()} for key, sub in stats.items()}

class NormalizerProcessorStep:
    """lerobot.processor.normalize_processor (reduced): stats adapt to the input tensor."""
    def __init__(self, features, norm_map, stats, device=None, dtype=None, eps=1e-8, inverse=False):
        self.features, self.norm_map, self.stats = features, norm_map, stats
        self.device, self.dtype, self.eps, self.inverse = device, dtype or torch.float32, eps, inverse
        self._tensor_stats = to_tensor(self.stats, device=self.device, dtype=self.dtype)

    def to(self, device=None, dtype=None):
        if device is not None:
            self.device = device
        if dtype is not None:
            self.dtype = dtype
        self._tensor_stats = to_tensor(self.stats, device=self.device, dtype=self.dtype)
        return self

    def _apply_transform(self, tensor, key, feature_type):
        norm_mode = self.norm_map.get(feature_type, "IDENTITY")
        if norm_mode == "IDENTITY" or key not in self._tensor_stats:
            return tensor
        # For Accelerate compatibility: stats on the same device and dtype as the input tensor
        first_stat = next(iter(self._tensor_stats[key].values()))
        if first_stat.device != tensor.device or first_stat.dtype != tensor.dtype:
            self.to(device=tensor.device, dtype=tensor.dtype)
        stats = self._tensor_stats[key]
        if norm_mode == "MEAN_STD":
            mean, std = stats["mean"], stats["std"]
            if self.inverse:
                return tensor * std + mean
            return (tensor - mean) / (std + self.eps)
        mn, mx = stats["min"], stats["max"]
        denom = torch.where(mx - mn == 0, torch.tensor(self.eps, device=mx.device, dtype=mx.dtype), mx - mn)
        if self.inverse:
            return (tensor + 1) / 2 * denom + mn
        return 2 * (tensor - mn) / denom - 1

    def __call__(self, batch):
        out = dict(batch)
        for key, feature_type in self.features.items():
            if key in out:
                out[key] = self._apply_transform(torch.as_tensor(out[key]), key, feature_type)
        return out

class DeviceProcessorStep:
    def __init__(self, device="cpu", float_dtype=None):
        self.device, self.float_dtype = torch.device(device), float_dtype

    def __call__(self, batch):
        out = {}
        for k, v in batch.items():
            if isinstance(v, torch.Tensor):
                v = v.to(self.device)
                if self.float_dtype is not None and v.is_floating_point():
                    v = v.to(self.float_dtype)
            out[k] = v
        return out

class PolicyProcessorPipeline:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, batch):
        for step in self.steps:
            batch = step(batch)
        return batch

class Policy(nn.Module):
    def __init__(self, state_dim=6, env_dim=3, action_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + env_dim, 64), nn.ReLU(), nn.Linear(64, action_dim))

    @torch.no_grad()
    def select_action(self, batch):
        x = torch.cat([batch["observation.state"], batch["observation.environment_state"]], dim=-1)
        return {"action": self.net(x)}

# dataset.meta.stats: numpy arrays from the dataset's stats.json
dataset_stats = {
    "observation.state": {"mean": np.zeros(6), "std": np.ones(6)},
    "observation.environment_state": {"mean": np.zeros(3), "std": np.full(3, 2.0)},
    "action": {"min": -np.ones(6), "max": np.ones(6)},
}
features = {"observation.state": "STATE", "observation.environment_state": "ENV", "action": "ACTION"}
norm_map = {"STATE": "MEAN_STD", "ENV": "MEAN_STD", "ACTION": "MIN_MAX"}

device = "cuda:0"
policy = Policy().to(device)
preprocessor = PolicyProcessorPipeline([
    DeviceProcessorStep(device=device),
    NormalizerProcessorStep(features, norm_map, dataset_stats),            # stats on the CPU
])
postprocessor = PolicyProcessorPipeline([
    NormalizerProcessorStep(features, norm_map, dataset_stats, inverse=True),
    DeviceProcessorStep(device="cpu"),
])
# robot.get_observation(), converted to tensors, still on the CPU
observation = {"observation.state": torch.randn(1, 6),
               "observation.environment_state": torch.randn(1, 3),
               "task": "pick the cube"}
'''
CELL = '''
batch = preprocessor(observation)
action = policy.select_action(batch)
action = postprocessor(action)["action"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
