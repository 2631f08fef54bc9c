"""Look-alike: CoTTA's stochastic restore draws its mask with `torch.rand` on the CPU and moves it before mixing weights.

Source: https://github.com/qinenergy/cotta/blob/main/cifar/cotta.py
After each adaptation step, CoTTA restores a random subset of the student's weights to the source
model: `mask = (torch.rand(p.shape) < self.rst).float().cuda()` then
`p.data = self.model_state[f"{nm}.{npp}"] * mask + p * (1. - mask)`; the teacher is an EMA copy
updated with `ema_param[:].data[:] = alpha_teacher * ema_param[:].data[:] + (1 - alpha_teacher) * param[:].data[:]`.
A CPU-drawn mask beside GPU weights and deep-copied states look suspicious, but the mask is moved and
the states were copied from the on-device model. Stand-in: the restore and EMA helpers on a small
model; meta plays the GPU (`.cuda()` written `.to(device)`).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from copy import deepcopy
import torch
import torch.nn as nn

def update_ema_variables(ema_model, model, alpha_teacher):
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data[:] = alpha_teacher * ema_param[:].data[:] + (1 - alpha_teacher) * param[:].data[:]
    return ema_model

class CoTTARestore:
    def __init__(self, model, rst_m=0.01, mt_alpha=0.999):
        self.model = model
        self.model_state = deepcopy(model.state_dict())
        self.model_ema = deepcopy(model)
        for param in self.model_ema.parameters():
            param.detach_()
        self.rst = rst_m
        self.mt = mt_alpha

    @torch.no_grad()
    def after_step(self):
        self.model_ema = update_ema_variables(ema_model=self.model_ema, model=self.model, alpha_teacher=self.mt)
        for nm, m in self.model.named_modules():
            for npp, p in m.named_parameters(recurse=False):
                if npp in ['weight', 'bias'] and p.requires_grad:
                    mask = (torch.rand(p.shape) < self.rst).float().to(device)     # .float().cuda()
                    p.data = self.model_state[f"{nm}.{npp}"] * mask + p * (1. - mask)

device = torch.device("meta")          # cuda on the user's machine
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10)).to(device)
cotta = CoTTARestore(model)
'''
CELL = '''
cotta.after_step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
