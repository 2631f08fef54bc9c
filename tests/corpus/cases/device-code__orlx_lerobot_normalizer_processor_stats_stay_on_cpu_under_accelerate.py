"""LeRobot training under Accelerate: the `NormalizerProcessor` built with `device=None` keeps its stats on the CPU while Accelerate put the batch on the GPU.

Source: https://github.com/huggingface/lerobot/pull/1795
"The `NormalizerProcessor` had a critical device compatibility issue that broke `Accelerate`
scenarios and multi-GPU setups. The original logic attempted to move input tensors to a fixed
processor device, but this failed when the processor `device` was `None` [...]. This caused
"Expected all tensors to be on the same device" errors because normalization stats remained on CPU
while input tensors were on GPU." The fix moves the stats to the input tensor's device inside
`_NormalizationMixin._apply_transform` (`_convert_stats_to_tensors({key: self.stats[key]},
device=input_device)`). Stand-ins: `_NormalizationMixin`/`NormalizerProcessor` as they were before
the PR (MEAN_STD and MIN_MAX only, no JSON round trip), a `RobotProcessor` running its steps on a
transition dict, a small MLP for the diffusion/ACT policy, and the Accelerate-prepared
dataloader reduced to moving each batch to `cuda:0`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
import numpy as np
import torch
from torch import Tensor, nn


class FeatureType(str, Enum):
    STATE = "STATE"
    VISUAL = "VISUAL"
    ACTION = "ACTION"


class NormalizationMode(str, Enum):
    MIN_MAX = "MIN_MAX"
    MEAN_STD = "MEAN_STD"
    IDENTITY = "IDENTITY"


@dataclass
class PolicyFeature:
    type: FeatureType
    shape: tuple


def _to_tensor(value, device=None):
    if isinstance(value, torch.Tensor):
        return value.to(dtype=torch.float32, device=device)
    if isinstance(value, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(value.astype(np.float32))).to(device=device)
    return torch.tensor(value, dtype=torch.float32, device=device)


def _convert_stats_to_tensors(stats, device=None):
    tensor_stats = {}
    for key, sub in (stats or {}).items():
        if sub is None:
            continue
        tensor_stats[key] = {name: _to_tensor(value, device=device) for name, value in sub.items()}
    return tensor_stats


@dataclass
class _NormalizationMixin:
    features: dict
    norm_map: dict
    stats: dict = None
    device: Any = None
    eps: float = 1e-8
    _tensor_stats: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self):
        self.stats = self.stats or {}
        self._tensor_stats = _convert_stats_to_tensors(self.stats, device=self.device)

    def to(self, device):
        self.device = device
        self._tensor_stats = _convert_stats_to_tensors(self.stats, device=self.device)
        return self

    def _normalize_observation(self, observation, inverse):
        new_observation = dict(observation)
        for key, feature in self.features.items():
            if feature.type != FeatureType.ACTION and key in new_observation:
                tensor = torch.as_tensor(new_observation[key], dtype=torch.float32)
                new_observation[key] = self._apply_transform(tensor, key, feature.type, inverse=inverse)
        return new_observation

    def _normalize_action(self, action, inverse):
        tensor = torch.as_tensor(action, dtype=torch.float32)
        return self._apply_transform(tensor, "action", FeatureType.ACTION, inverse=inverse)

    def _apply_transform(self, tensor, key, feature_type, *, inverse=False):
        norm_mode = self.norm_map.get(feature_type, NormalizationMode.IDENTITY)
        if norm_mode == NormalizationMode.IDENTITY or key not in self._tensor_stats:
            return tensor

        # Ensure input tensor is on the same device as the stats.
        if self.device and tensor.device != self.device:
            tensor = tensor.to(self.device)

        stats = self._tensor_stats[key]
        tensor = tensor.to(dtype=torch.float32)

        if norm_mode == NormalizationMode.MEAN_STD and "mean" in stats and "std" in stats:
            mean, std = stats["mean"], stats["std"]
            denom = std + self.eps
            if inverse:
                return tensor * std + mean
            return (tensor - mean) / denom

        if norm_mode == NormalizationMode.MIN_MAX and "min" in stats and "max" in stats:
            min_val, max_val = stats["min"], stats["max"]
            denom = max_val - min_val
            denom = torch.where(denom == 0, torch.tensor(self.eps, device=self.device, dtype=torch.float32), denom)
            if inverse:
                return (tensor + 1) / 2 * denom + min_val
            return 2 * (tensor - min_val) / denom - 1
        return tensor


@dataclass
class NormalizerProcessor(_NormalizationMixin):
    def __call__(self, transition):
        new_transition = dict(transition)
        if new_transition.get("observation") is not None:
            new_transition["observation"] = self._normalize_observation(new_transition["observation"], inverse=False)
        if new_transition.get("action") is not None:
            new_transition["action"] = self._normalize_action(new_transition["action"], inverse=False)
        return new_transition


class RobotProcessor:
    def __init__(self, steps, name="policy_preprocessor"):
        self.steps, self.name = steps, name

    def __call__(self, batch):
        transition = {"observation": {k: v for k, v in batch.items() if k.startswith("observation.")},
                      "action": batch.get("action")}
        for step in self.steps:
            transition = step(transition)
        return {**transition["observation"], "action": transition["action"]}


class Policy(nn.Module):
    def __init__(self, state_dim, env_dim, action_dim, chunk_size=8):
        super().__init__()
        self.chunk_size, self.action_dim = chunk_size, action_dim
        self.net = nn.Sequential(nn.Linear(state_dim + env_dim, 128), nn.ReLU(),
                                 nn.Linear(128, chunk_size * action_dim))

    def forward(self, batch):
        x = torch.cat([batch["observation.state"], batch["observation.environment_state"]], dim=-1)
        pred = self.net(x).view(-1, self.chunk_size, self.action_dim)
        return nn.functional.l1_loss(pred, batch["action"]), {}


features = {
    "observation.state": PolicyFeature(FeatureType.STATE, (2,)),
    "observation.environment_state": PolicyFeature(FeatureType.STATE, (16,)),
    "action": PolicyFeature(FeatureType.ACTION, (2,)),
}
norm_map = {FeatureType.STATE: NormalizationMode.MIN_MAX, FeatureType.ACTION: NormalizationMode.MIN_MAX}
rng = np.random.default_rng(0)
dataset_stats = {
    "observation.state": {"min": np.zeros(2), "max": np.full(2, 512.0)},
    "observation.environment_state": {"min": np.zeros(16), "max": np.full(16, 512.0)},
    "action": {"min": np.zeros(2), "max": np.full(2, 512.0)},
}

normalizer = NormalizerProcessor(features=features, norm_map=norm_map, stats=dataset_stats)
preprocessor = RobotProcessor(steps=[normalizer])

device = torch.device("cuda:0")                 # accelerator.device
policy = Policy(2, 16, 2).to(device)            # accelerator.prepare(policy)
optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-4)
cpu_batch = {
    "observation.state": torch.rand(64, 2) * 512,
    "observation.environment_state": torch.rand(64, 16) * 512,
    "action": torch.rand(64, 8, 2) * 512,
}
batch = {k: v.to(device) for k, v in cpu_batch.items()}   # the prepared dataloader's batch
'''
CELL = '''
batch = preprocessor(batch)
loss, output_dict = policy.forward(batch)
# accelerator.backward(loss); optimizer.step()   (no autograd on the simulated GPU)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["normalizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        stats = self._tensor_stats[key]
        tensor = tensor.to(dtype=torch.float32)
""", """        input_device = tensor.device
        stats = self._tensor_stats[key]
        tensor = tensor.to(dtype=torch.float32)

        stats_device = next(iter(stats.values())).device
        if stats_device != input_device:
            stats = _convert_stats_to_tensors({key: self.stats[key]}, device=input_device)[key]
""")
CLEAN = False
