"""Look-alike: Isaac Lab noise functions after the device fix, fed a config whose `std` / `n_min` / `n_max` tensors are on the CPU.

Source: https://github.com/isaac-sim/IsaacLab/blob/main/source/extensions/omni.isaac.lab/omni/isaac/lab/utils/noise/noise_model.py
`gaussian_noise` and `uniform_noise` start with "fix tensor device ... on first call and update config
parameters": `if isinstance(cfg.std, torch.Tensor): cfg.std = cfg.std.to(data.device)` (same for
`mean`, `n_min`, `n_max`), then draw `torch.randn_like(data)` / `torch.rand_like(data)` on the data's
device. A config written with CPU tensors and an observation buffer on the GPU is therefore fine:
the move happens inside the library call. Isaac Lab's `configclass` configs are reproduced by
dataclass stand-ins with the same fields; the two functions are Isaac Lab's code.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
from typing import Callable, Literal
import torch


def uniform_noise(data: torch.Tensor, cfg) -> torch.Tensor:
    # fix tensor device for n_max on first call and update config parameters
    if isinstance(cfg.n_max, torch.Tensor):
        cfg.n_max = cfg.n_max.to(data.device)
    # fix tensor device for n_min on first call and update config parameters
    if isinstance(cfg.n_min, torch.Tensor):
        cfg.n_min = cfg.n_min.to(data.device)

    if cfg.operation == "add":
        return data + torch.rand_like(data) * (cfg.n_max - cfg.n_min) + cfg.n_min
    elif cfg.operation == "scale":
        return data * (torch.rand_like(data) * (cfg.n_max - cfg.n_min) + cfg.n_min)
    elif cfg.operation == "abs":
        return torch.rand_like(data) * (cfg.n_max - cfg.n_min) + cfg.n_min
    else:
        raise ValueError(f"Unknown operation in noise: {cfg.operation}")


def gaussian_noise(data: torch.Tensor, cfg) -> torch.Tensor:
    # fix tensor device for mean on first call and update config parameters
    if isinstance(cfg.mean, torch.Tensor):
        cfg.mean = cfg.mean.to(data.device)
    # fix tensor device for std on first call and update config parameters
    if isinstance(cfg.std, torch.Tensor):
        cfg.std = cfg.std.to(data.device)

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


@dataclass
class UniformNoiseCfg:
    func: Callable = uniform_noise
    operation: Literal["add", "scale", "abs"] = "add"
    n_min: "torch.Tensor | float" = -1.0
    n_max: "torch.Tensor | float" = 1.0


num_envs = 64
device = "cuda:0"
joint_vel_noise = GaussianNoiseCfg(std=torch.tensor([0.01, 0.01, 0.05, 0.05, 0.1, 0.1]))
base_lin_vel_noise = UniformNoiseCfg(n_min=torch.tensor([-0.1, -0.1, -0.2]), n_max=torch.tensor([0.1, 0.1, 0.2]))
joint_vel = torch.zeros(num_envs, 6, device=device)
base_lin_vel = torch.zeros(num_envs, 3, device=device)
'''
CELL = '''
noisy_joint_vel = joint_vel_noise.func(joint_vel, joint_vel_noise)
noisy_base_lin_vel = base_lin_vel_noise.func(base_lin_vel, base_lin_vel_noise)
obs = torch.cat([noisy_base_lin_vel, noisy_joint_vel], dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
