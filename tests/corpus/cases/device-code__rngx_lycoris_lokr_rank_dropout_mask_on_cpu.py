"""LyCORIS LoKr with `rank_dropout` on a CUDA model: the rank-dropout mask is drawn with `torch.rand` on the CPU.

Source: https://github.com/KohakuBlueleaf/LyCORIS/issues/291
Training a LoKr network with `rank_dropout=0.05` on CUDA crashed in `LoKrModule.get_weight()` at
`weight *= drop` with "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!": the mask is built as `drop = (torch.rand(weight.size(0)) > self.rank_dropout).to(dtype)`,
and `torch.rand()` without a device is on the CPU while the Kronecker-product weight is on cuda:0. The
reporter's fix creates the mask with `device=weight.device`. Stand-in: a LoKr module reduced to the
two Kronecker factors, the rank-dropout branch and a forward wrapping the original Linear.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LoKrModule(nn.Module):
    def __init__(self, lora_name, org_module, multiplier=1.0, lora_dim=4, alpha=1, rank_dropout=0.0, factor=4):
        super().__init__()
        self.lora_name = lora_name
        out_dim, in_dim = org_module.weight.shape
        self.lokr_w1 = nn.Parameter(torch.randn(factor, factor) * 0.01)
        self.lokr_w2 = nn.Parameter(torch.randn(out_dim // factor, in_dim // factor) * 0.01)
        self.scale = alpha / lora_dim
        self.multiplier = multiplier
        self.rank_dropout = rank_dropout
        self.org_module = [org_module]

    def get_weight(self, shape):
        weight = torch.kron(self.lokr_w1, self.lokr_w2).reshape(shape) * self.scale
        dtype = weight.dtype
        if self.training and self.rank_dropout:
            drop = (torch.rand(weight.size(0)) > self.rank_dropout).to(dtype)
            drop = drop.view(-1, *[1] * len(weight.shape[1:]))
            weight *= drop
        return weight

    def forward(self, x):
        org = self.org_module[0]
        weight = self.get_weight(org.weight.shape)
        return org(x) + F.linear(x, weight) * self.multiplier

device = torch.device("cuda:0")
proj = nn.Linear(32, 32).to(device)
lokr = LoKrModule("lora_unet_mid_block_proj", proj, lora_dim=4, alpha=1, rank_dropout=0.05).to(device)
lokr.train()
x = torch.randn(2, 16, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    out = lokr(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lokr"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("drop = (torch.rand(weight.size(0)) > self.rank_dropout).to(dtype)",
                  "drop = (torch.rand(weight.size(0), device=weight.device) > self.rank_dropout).to(dtype)")
CLEAN = False
