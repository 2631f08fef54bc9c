"""Look-alike: ema-pytorch `EMA(..., allow_different_devices=True)` keeps the EMA on the CPU beside a cuda online model.

Source: https://github.com/lucidrains/ema-pytorch/pull/30
The PR discusses what `allow_different_devices` really does: with it set, `update_moving_average`
calls `inplace_copy` / `inplace_lerp` with `auto_move_device=True`, which move the online tensor
to the EMA tensor's device (`src = src.to(tgt.device)`) before `copy_` / `lerp_`. So an EMA copy
left on the CPU next to a cuda model updates without a device error.
Stand-in: the EMA class reduced to its update path (parameters and floating buffers), the copy
re-instantiated and loaded instead of deep-copied.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from functools import partial
import torch
from torch import nn

def inplace_copy(tgt, src, *, auto_move_device=False):
    if auto_move_device:
        src = src.to(tgt.device)
    tgt.copy_(src)

def inplace_lerp(tgt, src, weight, *, auto_move_device=False):
    if auto_move_device:
        src = src.to(tgt.device)
    tgt.lerp_(src, weight)

class EMA(nn.Module):
    def __init__(self, model, ema_model, beta=0.9999, allow_different_devices=False):
        super().__init__()
        self.beta = beta
        self.online_model = [model]
        self.ema_model = ema_model
        self.ema_model.load_state_dict(model.state_dict())
        self.ema_model.requires_grad_(False)
        self.inplace_copy = partial(inplace_copy, auto_move_device=allow_different_devices)
        self.inplace_lerp = partial(inplace_lerp, auto_move_device=allow_different_devices)

    @torch.no_grad()
    def update(self):
        current_decay = 1. - self.beta
        for ma, cur in zip(self.ema_model.parameters(), self.online_model[0].parameters()):
            self.inplace_lerp(ma.data, cur.data, current_decay)
        for ma, cur in zip(self.ema_model.buffers(), self.online_model[0].buffers()):
            if ma.is_floating_point():
                self.inplace_lerp(ma, cur, current_decay)
            else:
                self.inplace_copy(ma, cur)

def make_net():
    return nn.Sequential(nn.Linear(32, 64), nn.LayerNorm(64), nn.SiLU(), nn.Linear(64, 32))

net = make_net()
ema = EMA(net, ema_model=make_net(), beta=0.995, allow_different_devices=True)
net.to("cuda:0")                     # the EMA copy stays on the CPU
'''
CELL = '''
ema.update()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
