"""Look-alike: ema-pytorch's `KarrasEMA` left on the CPU keeps its `step`/`initted` buffers there while both models sit on the accelerator.

Source: https://github.com/lucidrains/ema-pytorch/blob/main/ema_pytorch/post_hoc_ema.py
The EMA wrapper itself is never moved: its `step` and `initted` buffers are 0-dim CPU tensors
while the online model and the deep-copied `ema_model` live on the accelerator. Since the fix for
lucidrains/ema-pytorch#31 the decay is computed from `self.step.item()` (a Python float), so
`lerp_(current, 1. - current_decay)` gets a number, not a CPU tensor; `update()` reads the
counters with `.item()` and fills `initted` from a CPU `torch.tensor(True)`.
Stand-in: `KarrasEMA` reduced to what `update()` runs (no ignore-name filters, gamma given);
"meta" plays the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from copy import deepcopy
from functools import partial
import torch
from torch import nn, Tensor
from torch.nn import Module

def inplace_copy(tgt: Tensor, src: Tensor, *, auto_move_device = False):
    if auto_move_device:
        src = src.to(tgt.device)
    tgt.copy_(src)

def inplace_lerp(tgt: Tensor, src: Tensor, weight, *, auto_move_device = False):
    if auto_move_device:
        src = src.to(tgt.device)
    tgt.lerp_(src, weight)

class KarrasEMA(Module):
    def __init__(self, model: Module, gamma: float, update_every: int = 10,
                 allow_different_devices = False):
        super().__init__()
        self.gamma = gamma
        self.online_model = [model]
        self.ema_model = deepcopy(model)
        for p in self.ema_model.parameters():
            p.detach_()
        self.parameter_names = {name for name, param in self.ema_model.named_parameters() if torch.is_floating_point(param) or torch.is_complex(param)}
        self.buffer_names = {name for name, buffer in self.ema_model.named_buffers() if torch.is_floating_point(buffer) or torch.is_complex(buffer)}
        self.inplace_copy = partial(inplace_copy, auto_move_device = allow_different_devices)
        self.inplace_lerp = partial(inplace_lerp, auto_move_device = allow_different_devices)
        self.update_every = update_every
        self.register_buffer('initted', torch.tensor(False))
        self.register_buffer('step', torch.tensor(0))

    @property
    def model(self):
        return self.online_model[0]

    @property
    def beta(self):
        return (1. - 1. / (self.step.item() + 1.)) ** (1. + self.gamma)

    def get_params_iter(self, model):
        for name, param in model.named_parameters():
            if name not in self.parameter_names:
                continue
            yield name, param

    def get_buffers_iter(self, model):
        for name, buffer in model.named_buffers():
            if name not in self.buffer_names:
                continue
            yield name, buffer

    def copy_params_from_model_to_ema(self):
        copy = self.inplace_copy
        for (_, ma_params), (_, current_params) in zip(self.get_params_iter(self.ema_model), self.get_params_iter(self.model)):
            copy(ma_params.data, current_params.data)
        for (_, ma_buffers), (_, current_buffers) in zip(self.get_buffers_iter(self.ema_model), self.get_buffers_iter(self.model)):
            copy(ma_buffers.data, current_buffers.data)

    def update(self):
        step = self.step.item()
        self.step += 1
        if (step % self.update_every) != 0:
            return
        if not self.initted.item():
            self.copy_params_from_model_to_ema()
            self.initted.data.copy_(torch.tensor(True))
        self.update_moving_average(self.ema_model, self.model)

    @torch.no_grad()
    def update_moving_average(self, ma_model, current_model):
        lerp = self.inplace_lerp
        current_decay = self.beta
        for (name, current_params), (_, ma_params) in zip(self.get_params_iter(current_model), self.get_params_iter(ma_model)):
            lerp(ma_params.data, current_params.data, 1. - current_decay)
        for (name, current_buffer), (_, ma_buffer) in zip(self.get_buffers_iter(current_model), self.get_buffers_iter(ma_model)):
            lerp(ma_buffer.data, current_buffer.data, 1. - current_decay)

device = torch.device("meta")
net = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.SiLU(),
                    nn.Conv2d(32, 3, 3, padding=1)).to(device)
ema = KarrasEMA(net, gamma=6.94, update_every=10)
opt = torch.optim.SGD(net.parameters(), lr=1e-3)
'''
CELL = '''
for _ in range(21):
    loss = net(torch.randn(2, 3, 16, 16, device=device)).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    ema.update()
with torch.no_grad():
    sample = ema.ema_model(torch.randn(1, 3, 16, 16, device=device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
