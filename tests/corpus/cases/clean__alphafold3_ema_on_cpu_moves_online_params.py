"""Look-alike: the EMA copy lives on the CPU on purpose and each update moves the online weights to it.

Source: https://github.com/lucidrains/alphafold3-pytorch/pull/119
"ema on cpu": the trainer keeps the EMA model on the CPU to save accelerator memory and builds it
with `allow_different_devices=True`, so every update first copies the online parameter to the
EMA parameter's device and lerps there. A CPU EMA beside a GPU model is deliberate here; nothing
to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class EMA(nn.Module):
    def __init__(self, model, beta=0.999, allow_different_devices=False):
        super().__init__()
        self.beta = beta
        self.online_model = [model]
        self.ema_model = copy.deepcopy(model)
        self.ema_model.requires_grad_(False)
        self.allow_different_devices = allow_different_devices

    @torch.no_grad()
    def update(self):
        for ma, cur in zip(self.ema_model.parameters(), self.online_model[0].parameters()):
            src = cur.data
            if self.allow_different_devices:
                src = src.to(ma.device)
            ma.data.lerp_(src, 1. - self.beta)

alphafold3 = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 12))
ema_model = EMA(alphafold3, beta=0.999, allow_different_devices=True)   # stays on the CPU
alphafold3.to("cuda:0")
batch = torch.randn(4, 12).to("cuda:0")
'''
CELL = '''
out = alphafold3(batch)
ema_model.update()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
