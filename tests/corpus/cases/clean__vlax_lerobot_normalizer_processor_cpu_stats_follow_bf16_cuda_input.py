"""Look-alike: LeRobot's NormalizerProcessorStep holds float32 CPU stats and re-homes them to the input's device and dtype on first use.

Source: https://github.com/huggingface/lerobot/blob/7427f31801f944f5ec9ce53cda02862ce7d1638b/src/lerobot/processor/normalize_processor.py
`_NormalizationMixin.__post_init__` converts the dataset stats with `to_tensor(self.stats, device=self.device,
dtype=self.dtype)`; with no device given they sit on the CPU in float32. `_apply_transform` checks
`first_stat.device != tensor.device or first_stat.dtype != tensor.dtype` and calls `self.to(device=...,
dtype=...)` before `(tensor - mean) / denom`; MIN_MAX builds its epsilon with `device=tensor.device`. A bf16
batch already on the GPU (the pipeline runs DeviceProcessorStep before the normalizer) is normalized there.
Stand-ins: the mixin reduced to MEAN_STD / MIN_MAX, `to_tensor`, and a minimal transition dict.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass, field
from enum import Enum
import numpy as np
import torch
from torch import Tensor


class FeatureType(str, Enum):
    STATE = "STATE"
    ACTION = "ACTION"


class NormalizationMode(str, Enum):
    IDENTITY = "IDENTITY"
    MEAN_STD = "MEAN_STD"
    MIN_MAX = "MIN_MAX"


def to_tensor(stats, device=None, dtype=torch.float32):
    return {
        key: {name: torch.as_tensor(np.asarray(v), dtype=dtype, device=device) for name, v in sub.items()}
        for key, sub in stats.items()
    }


@dataclass
class NormalizerProcessorStep:
    features: dict
    norm_map: dict
    stats: dict | None = None
    device: torch.device | str | None = None
    dtype: torch.dtype | None = None
    eps: float = 1e-8
    _tensor_stats: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self):
        self.stats = self.stats or {}
        if self.dtype is None:
            self.dtype = torch.float32
        self._tensor_stats = to_tensor(self.stats, device=self.device, dtype=self.dtype)

    def to(self, device=None, dtype=None):
        if device is not None:
            self.device = device
        if dtype is not None:
            self.dtype = dtype
        self._tensor_stats = to_tensor(self.stats, device=self.device, dtype=self.dtype)
        return self

    def _apply_transform(self, tensor: Tensor, key: str, feature_type, *, inverse=False) -> Tensor:
        norm_mode = self.norm_map.get(feature_type, NormalizationMode.IDENTITY)
        if norm_mode == NormalizationMode.IDENTITY or key not in self._tensor_stats:
            return tensor
        if self._tensor_stats and key in self._tensor_stats:
            first_stat = next(iter(self._tensor_stats[key].values()))
            if first_stat.device != tensor.device or first_stat.dtype != tensor.dtype:
                self.to(device=tensor.device, dtype=tensor.dtype)
        stats = self._tensor_stats[key]
        if norm_mode == NormalizationMode.MEAN_STD:
            mean, std = stats["mean"], stats["std"]
            denom = std + self.eps
            if inverse:
                return tensor * std + mean
            return (tensor - mean) / denom
        min_val, max_val = stats["min"], stats["max"]
        denom = max_val - min_val
        denom = torch.where(denom == 0, torch.tensor(self.eps, device=tensor.device, dtype=tensor.dtype), denom)
        if inverse:
            return (tensor + 1) / 2 * denom + min_val
        return 2 * (tensor - min_val) / denom - 1

    def __call__(self, transition):
        new = dict(transition)
        observation = dict(new["observation"])
        for key, ftype in self.features.items():
            if ftype != FeatureType.ACTION and key in observation:
                observation[key] = self._apply_transform(torch.as_tensor(observation[key]), key, ftype)
        new["observation"] = observation
        if new.get("action") is not None:
            new["action"] = self._apply_transform(new["action"], "action", FeatureType.ACTION)
        return new


dataset_stats = {
    "observation.state": {"mean": np.zeros(6, dtype=np.float32), "std": np.ones(6, dtype=np.float32)},
    "action": {"min": -np.ones(6, dtype=np.float32), "max": np.ones(6, dtype=np.float32)},
}
normalizer = NormalizerProcessorStep(
    features={"observation.state": FeatureType.STATE, "action": FeatureType.ACTION},
    norm_map={FeatureType.STATE: NormalizationMode.MEAN_STD, FeatureType.ACTION: NormalizationMode.MIN_MAX},
    stats=dataset_stats,
)
device = torch.device("cuda:0")
transition = {
    "observation": {"observation.state": torch.randn(8, 6, device=device, dtype=torch.bfloat16)},
    "action": torch.randn(8, 6, device=device, dtype=torch.bfloat16),
}
'''
CELL = '''
processed = normalizer(transition)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
