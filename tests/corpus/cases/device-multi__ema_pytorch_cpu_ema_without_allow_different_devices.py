"""ema-pytorch on a GPU model: the EMA copy was kept on the CPU without `allow_different_devices=True`.

Source: https://github.com/lucidrains/ema-pytorch/issues/5
The user kept the EMA weights on the CPU to save GPU memory while the online model trained on
cuda. The EMA update lerps each EMA parameter toward the online one in place, and without
`allow_different_devices=True` (which moves the online tensor to the EMA's device first) the CPU
EMA parameter met the cuda online parameter. The EMA wrapper is reduced to its update.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn

class EMA(nn.Module):
    def __init__(self, model, beta=0.9999, allow_different_devices=False):
        super().__init__()
        self.beta = beta
        self.online_model = [model]
        self.ema_model = copy.deepcopy(model)
        self.ema_model.requires_grad_(False)
        self.allow_different_devices = allow_different_devices

    @torch.no_grad()
    def update(self):
        for ma_params, current_params in zip(self.ema_model.parameters(),
                                             self.online_model[0].parameters()):
            src = current_params.data
            if self.allow_different_devices:
                src = src.to(ma_params.device)
            ma_params.data.lerp_(src, 1. - self.beta)

net = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Linear(32, 16))
ema = EMA(net, beta=0.9999)          # the EMA copy is made while net is still on the CPU
net.to("cuda:0")                      # only the online model goes to the GPU
opt = torch.optim.SGD(net.parameters(), lr=1e-2)
'''
CELL = '''
ema.update()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ema.ema_model"]
FIX = "namespace"
REFERENCE_FIX = '''
ema.allow_different_devices = True      # keep the EMA on the CPU, move the online tensors to it
'''
REFERENCE_EDIT = None
CLEAN = False
