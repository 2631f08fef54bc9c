"""GPyTorch `LazyTensor.cat_rows` on the GPU: the evaluated joint covariance comes back on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/1711
With a `MaternKernel().cuda()` and cuda inputs, `kxx.cat_rows(kxy, kyy)` gives a joint covariance
whose `matmul` stays on the GPU but whose `.evaluate()` is a CPU tensor; using it with the cuda
data then mixes devices. The maintainer found "a missing device_id argument in the CatLazyTensor
calls" (`CatLazyTensor` defaults its output device to the CPU) and fixed it.
Stand-in: a CatLazyTensor whose `evaluate` allocates on `output_device`, and `cat_rows` that
does not pass it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CatLazyTensor:
    def __init__(self, *lazy_tensors, dim=-2, output_device=torch.device("cpu")):
        self.lazy_tensors, self.cat_dim, self.output_device = lazy_tensors, dim, output_device

    def evaluate(self):
        res = [t.to(self.output_device) for t in self.lazy_tensors]
        return torch.cat(res, dim=self.cat_dim)

    def matmul(self, rhs):
        return self.evaluate() @ rhs

class DenseLazyTensor:
    def __init__(self, tensor):
        self.tensor = tensor

    def cat_rows(self, cross_mat, new_mat):
        upper = torch.cat([self.tensor, cross_mat.tensor.transpose(-1, -2)], dim=-1)
        lower = torch.cat([cross_mat.tensor, new_mat.tensor], dim=-1)
        return CatLazyTensor(upper, lower, dim=-2)

class MaternKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))

    def forward(self, x1, x2=None):
        x2 = x1 if x2 is None else x2
        d = torch.cdist(x1, x2) / torch.nn.functional.softplus(self.raw_lengthscale)
        return DenseLazyTensor((1 + 5 ** 0.5 * d + 5.0 / 3.0 * d ** 2) * torch.exp(-5 ** 0.5 * d))

x = torch.randn(10, 3).to("cuda:0")
y = torch.randn(5, 3).to("cuda:0")
kernel = MaternKernel().to("cuda:0")
with torch.no_grad():
    kxx, kxy, kyy = kernel(x), kernel(y, x), kernel(y)
    joint_covariance = kxx.cat_rows(kxy, kyy)
'''
CELL = '''
with torch.no_grad():
    joint = joint_covariance.evaluate()
    jitter = 1e-4 * torch.eye(15, device="cuda:0")
    L = torch.linalg.cholesky(joint + jitter)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["joint_covariance"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return CatLazyTensor(upper, lower, dim=-2)",
                  "        return CatLazyTensor(upper, lower, dim=-2, output_device=upper.device)")
CLEAN = False
