"""smee (differentiable force-field energies in PyTorch) on CUDA: helper tensors inside the LJ energy are created without a device.

Source: https://github.com/openforcefield/smee/pull/80
"Fix tensors on different devices": computing energies with the system's conformer and parameters on
cuda failed because new tensors made inside the energy functions (exclusion/scale masks, pair indices)
were created on the default (CPU) device; the PR creates them on the device of the input tensors.
Stand-in: a non-periodic LJ energy with the 1-4 scaling mask built inside the function.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def compute_lj_energy(conformer, epsilon, sigma, exclusions, scale_14=0.5):
    n = conformer.shape[0]
    scale = torch.ones(n, n, dtype=conformer.dtype)
    scale = scale * (1.0 - exclusions) + exclusions * scale_14
    eps_ij = torch.sqrt(epsilon[:, None] * epsilon[None, :])
    sig_ij = 0.5 * (sigma[:, None] + sigma[None, :])
    r = torch.cdist(conformer, conformer) + torch.eye(n, device=conformer.device)
    x = (sig_ij / r) ** 6
    return (scale * 4.0 * eps_ij * (x * x - x)).triu(1).sum()

device = "cuda:0"
conformer = (2.5 * torch.randn(5, 3)).to(device)
epsilon = torch.tensor([0.11, 0.016, 0.016, 0.016, 0.21]).to(device)
sigma = torch.tensor([3.4, 2.6, 2.6, 2.6, 3.1]).to(device)
exclusions = torch.zeros(5, 5)
exclusions[0, 4] = exclusions[4, 0] = 1.0
exclusions = exclusions.to(device)
'''
CELL = '''
energy = compute_lj_energy(conformer, epsilon, sigma, exclusions)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scale"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(n, n, dtype=conformer.dtype)", "torch.ones(n, n, dtype=conformer.dtype, device=conformer.device)")
CLEAN = False
