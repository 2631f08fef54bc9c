"""Isaac Lab observation noise: a per-dimension `std` tensor in `GaussianNoiseCfg` stays on the CPU while the observations are on the GPU.

Source: https://github.com/isaac-sim/IsaacLab/pull/1175
"Fixes device propogation for noise": the noise functions (`constant_noise`, `uniform_noise`,
`gaussian_noise`) failed "when noise config parameters are tensor based and do not have the correct
device setting". A config written with `std=torch.tensor([...])` holds a CPU tensor, the env's
observation buffer `data` lives on `cuda:0`, and `data + cfg.mean + cfg.std * torch.randn_like(data)`
mixes them. The merged fix moves `cfg.mean` / `cfg.std` (and `bias`, `n_min`, `n_max`) to
`data.device` on first call. Isaac Lab's `configclass` `GaussianNoiseCfg` and `gaussian_noise`
(before the fix) are reproduced by a minimal dataclass stand-in with the same fields.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from dataclasses import dataclass
from typing import Callable, Literal
import torch


def gaussian_noise(data: torch.Tensor, cfg) -> torch.Tensor:
    """Applies a gaussian noise to a given data set (Isaac Lab, before the fix)."""
    if cfg.operation == "add":
        return data + cfg.mean + cfg.std * torch.randn_like(data)
    elif cfg.operation == "scale":
        return data * (cfg.mean + cfg.std * torch.randn_like(data))
    elif cfg.operation == "abs":
        return cfg.mean + cfg.std * torch.randn_like(data)
    else:
        raise ValueError(f"Unknown operation in noise: {cfg.operation}")


@dataclass
class GaussianNoiseCfg:
    func: Callable = gaussian_noise
    operation: Literal["add", "scale", "abs"] = "add"
    mean: "torch.Tensor | float" = 0.0
    std: "torch.Tensor | float" = 1.0


num_envs = 64
device = "cuda:0"
# joint-velocity observation with a different noise level per joint
noise_cfg = GaussianNoiseCfg(mean=0.0, std=torch.tensor([0.01, 0.01, 0.05, 0.05, 0.1, 0.1]))
joint_vel = torch.zeros(num_envs, 6, device=device)
'''
CELL = '''
noisy_joint_vel = noise_cfg.func(joint_vel, noise_cfg)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["noise_cfg.std"]
FIX = "namespace"
REFERENCE_FIX = '''
noise_cfg.std = noise_cfg.std.to(joint_vel.device)
'''
REFERENCE_EDIT = None
CLEAN = False
