"""zeta's MambaBlock on a GPU: `selective_scan` starts its state with `torch.zeros((b, d_in, n))` on the CPU.

Source: https://github.com/kyegomez/zeta/issues/181
The user built `MambaBlock(dim=64, depth=1)`, moved the input to cuda and called the block (later
comments: moved the block too); it failed in `selective_scan` at `x = deltaA[:, :, i] * x +
deltaB_u[:, :, i]`. The scan state `x = torch.zeros((b, d_in, n))` is made without a device; the fix
from the thread creates it on the parameters' device. Stand-in: zeta's simple_mamba MambaBlock reduced
to one block (einops einsum/rearrange replaced by torch.einsum/transpose); meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class MambaBlock(nn.Module):
    def __init__(self, dim, depth=5, d_state=16, expand=2, d_conv=4, conv_bias=True, bias=False):
        super().__init__()
        self.dim = dim
        self.depth = depth
        self.d_state = d_state
        self.expand = expand
        self.d_conv = d_conv
        self.dim_inner = int(self.expand * self.dim)
        self.dt_rank = math.ceil(self.dim / 16)
        self.in_proj = nn.Linear(dim, self.dim_inner * 2, bias=bias)
        self.conv1d = nn.Conv1d(self.dim_inner, self.dim_inner, bias=conv_bias, kernel_size=d_conv,
                                groups=self.dim_inner, padding=d_conv - 1)
        self.x_proj = nn.Linear(self.dim_inner, self.dt_rank + self.d_state * 2, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.dim_inner, bias=True)
        A = torch.arange(1, self.d_state + 1).float().repeat(self.dim_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.dim_inner))
        self.out_proj = nn.Linear(self.dim_inner, dim, bias=bias)

    def forward(self, x):
        (b, l, d) = x.shape
        x_and_res = self.in_proj(x)
        (x, res) = x_and_res.split(split_size=[self.dim_inner, self.dim_inner], dim=-1)
        x = x.transpose(1, 2)
        x = self.conv1d(x)[:, :, :l]
        x = x.transpose(1, 2)
        x = F.silu(x)
        y = self.ssm(x)
        y = y * F.silu(res)
        return self.out_proj(y)

    def ssm(self, x):
        (d_in, n) = self.A_log.shape
        A = -torch.exp(self.A_log.float())
        D = self.D.float()
        x_dbl = self.x_proj(x)
        (delta, B, C) = x_dbl.split(split_size=[self.dt_rank, n, n], dim=-1)
        delta = F.softplus(self.dt_proj(delta))
        return self.selective_scan(x, delta, A, B, C, D)

    def selective_scan(self, u, delta, A, B, C, D):
        (b, l, d_in) = u.shape
        n = A.shape[1]
        deltaA = torch.exp(torch.einsum("bld,dn->bdln", delta, A))
        deltaB_u = torch.einsum("bld,bln,bld->bdln", delta, B, u)
        x = torch.zeros((b, d_in, n))
        ys = []
        for i in range(l):
            x = deltaA[:, :, i] * x + deltaB_u[:, :, i]
            y = torch.einsum("bdn,bn->bd", x, C[:, i, :])
            ys.append(y)
        y = torch.stack(ys, dim=2)
        y = y.transpose(1, 2) + u * D
        return y

device = torch.device("meta")   # the user: "cuda:0" if torch.cuda.is_available() else "cpu"
block = MambaBlock(dim=64, depth=1).to(device)
x = torch.randn(1, 10, 64).to(device)
'''
CELL = '''
y = block(x).to(device)
print(y.shape)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["block"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x = torch.zeros((b, d_in, n))", "x = torch.zeros((b, d_in, n), device=u.device)")
CLEAN = False
