"""DCLS: the kernel-construction indices cached on the first (CPU) call stay there after `.cuda()`.

Source: https://github.com/K-H-Ismail/Dilated-Convolution-with-Learnable-Spacings-PyTorch/pull/8
`ConstructKernel2d.__init_tmp_variables__` builds `self.IDX` and `self.lim` lazily, on the device of
the first weight it sees, and caches them as plain attributes (`if self.IDX is None or self.lim is
None`). After a first call on the CPU (a sanity check), moving the Dcls2d layer to the GPU left
them on the CPU and `P = P + self.lim // 2` failed with "cuda:0 and cpu". The PR re-creates them on
the right device. Stand-in: a cut-down Dcls2d with the "gauss" kernel construction.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ConstructKernel2d(nn.Module):
    def __init__(self, out_channels, in_channels, kernel_count, dilated_kernel_size):
        super().__init__()
        self.out_channels = out_channels
        self.in_channels = in_channels
        self.kernel_count = kernel_count
        self.dilated_kernel_size = dilated_kernel_size
        self.IDX = None
        self.lim = None

    def __init_tmp_variables__(self, device):
        if self.IDX is None or self.lim is None:
            I = torch.arange(0, self.dilated_kernel_size[0]).to(device)
            IDX = torch.stack(torch.meshgrid(I, I, indexing="ij"))
            IDX = IDX.expand(self.out_channels, self.in_channels, self.kernel_count, -1, -1, -1)
            self.IDX = IDX.permute(4, 5, 3, 0, 1, 2)
            lim = torch.tensor(self.dilated_kernel_size).to(device)
            self.lim = lim.expand(self.out_channels, self.in_channels, self.kernel_count, -1).permute(3, 0, 1, 2)

    def forward_vgauss(self, W, P, SIG):
        P = P + self.lim // 2
        SIG = SIG.abs() + 0.27
        X = ((self.IDX - P) / SIG).norm(2, dim=2)
        X = (-0.5 * X ** 2).exp()
        X = X / (X.sum((0, 1)) + 1e-7)
        K = (X * W).sum(-1)
        return K.permute(2, 3, 0, 1)

    def forward(self, W, P, SIG):
        self.__init_tmp_variables__(W.device)
        return self.forward_vgauss(W, P, SIG)

class Dcls2d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_count=4, dilated_kernel_size=(7, 7)):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, in_channels, kernel_count) * 0.1)
        self.P = nn.Parameter(torch.randn(2, out_channels, in_channels, kernel_count))
        self.SIG = nn.Parameter(torch.full((2, out_channels, in_channels, kernel_count), 0.23))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        self.padding = dilated_kernel_size[0] // 2
        self.DCK = ConstructKernel2d(out_channels, in_channels, kernel_count, dilated_kernel_size)

    def forward(self, x):
        kernel = self.DCK(self.weight, self.P, self.SIG)
        return F.conv2d(x, kernel, self.bias, padding=self.padding)

conv = Dcls2d(3, 8)
_ = conv(torch.randn(1, 3, 16, 16))      # sanity check on the CPU caches DCK.IDX / DCK.lim
conv = conv.to("cuda:0")
x = torch.randn(4, 3, 32, 32, device="cuda:0")
'''
CELL = '''
out = conv(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["conv.DCK.lim", "conv.DCK.IDX"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if self.IDX is None or self.lim is None:",
                  "        if self.IDX is None or self.lim is None or self.lim.device != device:")
CLEAN = False
