"""pfhedge `generate_heston(..., device="cuda:0")` crashes: the Heston path sampler draws its normals on the CPU.

Source: https://github.com/pfnet-research/pfhedge/issues/140
`generate_heston(2, 5, device="cuda:0")` raised "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu!" at `(k3 * v0 + k4 * v1).sqrt() * randn[:, i_step]`.
The variance path comes from `generate_cir(..., device=device)` on the GPU, but inside
`generate_heston` the Gaussian draws `randn = torch.randn(n_paths, n_steps)` and the buffer
`log_spot = torch.empty(n_paths, n_steps)` were made without a device. The fix (commit "Fix #140")
makes both with `torch.empty_like(variance)` / `torch.randn_like(variance)`.
pfhedge's `generate_cir` is reproduced by a minimal stand-in (an Euler CIR scheme that honours
`device=`); `generate_heston` keeps the structure of the version before the fix. The GPU is
simulated by the meta device.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
from typing import Optional, Tuple
import torch
from torch import Tensor


def generate_cir(n_paths, n_steps, init_value=0.04, kappa=1.0, theta=0.04, sigma=2.0,
                 dt=1 / 250, dtype=None, device=None) -> Tensor:
    # stand-in for pfhedge.stochastic.generate_cir: everything is made on `device`
    output = torch.empty((n_paths, n_steps), dtype=dtype, device=device)
    output[:, 0] = init_value
    randn = torch.randn_like(output)
    for i_step in range(n_steps - 1):
        v = output[:, i_step]
        dv = kappa * (theta - v) * dt + sigma * v.clamp(min=0.0).sqrt() * (dt ** 0.5) * randn[:, i_step]
        output[:, i_step + 1] = (v + dv).clamp(min=0.0)
    return output


def generate_heston(
    n_paths: int,
    n_steps: int,
    init_state: Tuple[float, float] = (1.0, 0.04),
    kappa: float = 1.0,
    theta: float = 0.04,
    sigma: float = 2.0,
    rho: float = -0.7,
    dt: float = 1 / 250,
    dtype: Optional[torch.dtype] = None,
    device: Optional[torch.device] = None,
) -> Tuple[Tensor, Tensor]:
    GAMMA1 = 0.5
    GAMMA2 = 0.5

    init_spot, init_var = init_state

    variance = generate_cir(
        n_paths=n_paths,
        n_steps=n_steps,
        init_value=init_var,
        kappa=kappa,
        theta=theta,
        sigma=sigma,
        dt=dt,
        dtype=dtype,
        device=device,
    )
    log_spot = torch.empty(n_paths, n_steps)
    log_spot[:, 0] = torch.tensor(init_spot).log()

    randn = torch.randn(n_paths, n_steps)

    for i_step in range(n_steps - 1):
        # Compute log S(t + 1): Eq(33)
        k0 = -rho * kappa * theta * dt / sigma
        k1 = GAMMA1 * dt * (kappa * rho / sigma - 0.5) - rho / sigma
        k2 = GAMMA2 * dt * (kappa * rho / sigma - 0.5) + rho / sigma
        k3 = GAMMA1 * dt * (1 - rho ** 2)
        k4 = GAMMA2 * dt * (1 - rho ** 2)
        v0 = variance[:, i_step]
        v1 = variance[:, i_step + 1]
        log_spot[:, i_step + 1] = sum(
            (
                log_spot[:, i_step],
                k0 + k1 * v0 + k2 * v1,
                (k3 * v0 + k4 * v1).sqrt() * randn[:, i_step],
            )
        )

    return (log_spot.exp(), variance)
'''
CELL = '''
spot, variance = generate_heston(2, 5, device="meta")   # "cuda:0" on the GPU machine
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["generate_heston"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "log_spot = torch.empty(n_paths, n_steps)\n    log_spot[:, 0] = torch.tensor(init_spot).log()\n\n    randn = torch.randn(n_paths, n_steps)",
    "log_spot = torch.empty_like(variance)\n    log_spot[:, 0] = torch.tensor(init_spot).log()\n    randn = torch.randn_like(variance)",
)
CLEAN = False
