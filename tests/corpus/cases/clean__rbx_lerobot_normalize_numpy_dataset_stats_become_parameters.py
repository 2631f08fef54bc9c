"""Look-alike: LeRobot policy built from numpy `dataset.meta.stats`: `Normalize`/`Unnormalize` copy the stats into frozen `nn.ParameterDict`s that follow `policy.to(device)`.

Source: https://github.com/huggingface/lerobot (lerobot/common/policies/normalize.py create_stats_buffers / Normalize / Unnormalize; lerobot/common/policies/act/modeling_act.py select_action, v0.2 layout)
The policy receives `dataset_stats` as numpy arrays on the CPU. `create_stats_buffers` wraps each modality's
mean/std (or min/max) in `nn.ParameterDict({"mean": nn.Parameter(..., requires_grad=False), ...})` and
assigns `buffer["mean"].data = torch.from_numpy(stats[key]["mean"]).to(dtype=torch.float32)`; `Normalize`
stores them as `buffer_<key>` attributes, so they are registered submodules and move with the policy.
`select_action` normalises the on-device batch and unnormalises the action on the GPU. Stand-ins: the ACT
network reduced to a state/image encoder and an action head; the `assert not torch.isinf(mean).any()`
checks are left out (they read values, which the simulated GPU cannot).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import deque
from enum import Enum
import numpy as np
import torch
from torch import nn

class NormalizationMode(str, Enum):
    MIN_MAX = "MIN_MAX"
    MEAN_STD = "MEAN_STD"
    IDENTITY = "IDENTITY"

def create_stats_buffers(shapes, modes, stats=None):
    stats_buffers = {}
    for key, mode in modes.items():
        shape = tuple(shapes[key])
        if "image" in key:
            c, h, w = shape
            shape = (c, 1, 1)
        if mode == NormalizationMode.MEAN_STD:
            buffer = nn.ParameterDict({
                "mean": nn.Parameter(torch.ones(shape, dtype=torch.float32) * torch.inf, requires_grad=False),
                "std": nn.Parameter(torch.ones(shape, dtype=torch.float32) * torch.inf, requires_grad=False),
            })
        else:
            buffer = nn.ParameterDict({
                "min": nn.Parameter(torch.ones(shape, dtype=torch.float32) * torch.inf, requires_grad=False),
                "max": nn.Parameter(torch.ones(shape, dtype=torch.float32) * torch.inf, requires_grad=False),
            })
        if stats:
            for name in buffer.keys():
                buffer[name].data = torch.from_numpy(stats[key][name]).to(dtype=torch.float32)
        stats_buffers[key] = buffer
    return stats_buffers

class Normalize(nn.Module):
    def __init__(self, shapes, modes, stats=None):
        super().__init__()
        self.shapes, self.modes = shapes, modes
        for key, buffer in create_stats_buffers(shapes, modes, stats).items():
            setattr(self, "buffer_" + key.replace(".", "_"), buffer)

    @torch.no_grad
    def forward(self, batch):
        batch = dict(batch)
        for key, mode in self.modes.items():
            buffer = getattr(self, "buffer_" + key.replace(".", "_"))
            if mode == NormalizationMode.MEAN_STD:
                batch[key] = (batch[key] - buffer["mean"]) / (buffer["std"] + 1e-8)
            else:
                batch[key] = (batch[key] - buffer["min"]) / (buffer["max"] - buffer["min"] + 1e-8)
                batch[key] = batch[key] * 2 - 1
        return batch

class Unnormalize(Normalize):
    @torch.no_grad
    def forward(self, batch):
        batch = dict(batch)
        for key, mode in self.modes.items():
            buffer = getattr(self, "buffer_" + key.replace(".", "_"))
            if mode == NormalizationMode.MEAN_STD:
                batch[key] = batch[key] * buffer["std"] + buffer["mean"]
            else:
                batch[key] = (batch[key] + 1) / 2 * (buffer["max"] - buffer["min"]) + buffer["min"]
        return batch

class ACTPolicy(nn.Module):
    def __init__(self, dataset_stats, chunk_size=10, n_action_steps=10):
        super().__init__()
        input_shapes = {"observation.images.top": [3, 32, 32], "observation.state": [14]}
        output_shapes = {"action": [14]}
        self.normalize_inputs = Normalize(input_shapes, {"observation.images.top": NormalizationMode.MEAN_STD,
                                                         "observation.state": NormalizationMode.MEAN_STD}, dataset_stats)
        self.unnormalize_outputs = Unnormalize(output_shapes, {"action": NormalizationMode.MEAN_STD}, dataset_stats)
        self.chunk_size, self.n_action_steps = chunk_size, n_action_steps
        self.state_proj = nn.Linear(14, 32)
        self.img_proj = nn.Linear(3, 32)
        self.action_head = nn.Linear(32, chunk_size * 14)
        self._action_queue = deque([], maxlen=n_action_steps)

    @torch.no_grad
    def select_action(self, batch):
        self.eval()
        batch = self.normalize_inputs(batch)
        if len(self._action_queue) == 0:
            h = self.state_proj(batch["observation.state"])
            h = h + self.img_proj(batch["observation.images.top"].flatten(2).mean(-1))
            actions = self.action_head(torch.relu(h)).view(-1, self.chunk_size, 14)[:, : self.n_action_steps]
            actions = self.unnormalize_outputs({"action": actions})["action"]
            self._action_queue.extend(actions.transpose(0, 1))
        return self._action_queue.popleft()

rng = np.random.default_rng(0)
dataset_stats = {
    "observation.images.top": {"mean": rng.random((3, 1, 1)).astype(np.float32), "std": np.full((3, 1, 1), 0.25, np.float32)},
    "observation.state": {"mean": rng.normal(size=14).astype(np.float32), "std": np.ones(14, np.float32)},
    "action": {"mean": rng.normal(size=14).astype(np.float32), "std": np.ones(14, np.float32)},
}
device = torch.device("cuda:0")
policy = ACTPolicy(dataset_stats=dataset_stats)
policy.to(device)
observation = {"observation.state": torch.randn(1, 14), "observation.images.top": torch.rand(1, 3, 32, 32)}
'''
CELL = '''
observation = {k: v.to(device, non_blocking=True) for k, v in observation.items()}
action = policy.select_action(observation)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
