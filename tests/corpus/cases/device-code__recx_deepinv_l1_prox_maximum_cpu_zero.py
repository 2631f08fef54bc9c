"""deepinv L1 data fidelity prox on the GPU: `torch.maximum(d.abs() - gamma, torch.tensor([0]))` mixes cuda and cpu.

Source: https://github.com/deepinv/deepinv/issues/23
"There is a device issue with line 481 in the maximum between d.abs() - gamma and torch.tensor([0]).
If d is on GPU, the computation doesn't work: Expected all tensors to be on the same device". The
zero is built without a device inside `L1.prox_d`; fixed (PR #24) by creating it on `d`'s device.
Stand-in: deepinv's 2023 `L1` data fidelity (soft-thresholding prox) and a denoising physics.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class DataFidelity(torch.nn.Module):
    def prox(self, x, y, physics, gamma=1.0):
        return self.prox_d(physics.A(x), y, gamma)

class L1(DataFidelity):
    def d(self, x, y):
        return (x - y).abs().flatten(1).sum(-1)

    def prox_d(self, x, y, gamma=1.0):
        d = x - y
        aux = torch.sign(d) * torch.maximum(d.abs() - gamma, torch.tensor([0]))
        return aux + y

class Denoising(torch.nn.Module):
    def A(self, x):
        return x

device = "cuda:0"
physics = Denoising()
data_fidelity = L1()
x = torch.rand(1, 3, 32, 32, device=device)
y = x + 0.1 * torch.randn(1, 3, 32, 32, device=device)
'''
CELL = '''
x_prox = data_fidelity.prox(x, y, physics, gamma=0.05)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data_fidelity"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor([0]))", "torch.tensor([0], device=d.device))")
CLEAN = False
