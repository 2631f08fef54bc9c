"""diffusers text-to-image example: the EMAModel's shadow parameters are cloned from the UNet on the CPU and never follow it to the GPU.

Source: https://github.com/huggingface/diffusers/pull/2382
"[Examples] Make sure EMA works with any device": the example builds `ema_unet = EMAModel(unet.parameters())`
while the UNet is still on the CPU (the shadow parameters are `p.clone().detach()` copies), then
`accelerator.prepare` moves the UNet; `ema_unet.step(unet.parameters())` mixes CPU shadows with
CUDA weights. The examples now call `ema_unet.to(accelerator.device)`. Stand-in: EMAModel reduced
to its step and `to`, a two-layer "UNet", and `accelerator.prepare` reduced to the move.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class EMAModel:
    def __init__(self, parameters, decay=0.9999):
        parameters = list(parameters)
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.decay = decay
        self.optimization_step = 0

    def get_decay(self, optimization_step):
        step = max(0, optimization_step - 1)
        value = (1 + step) / (10 + step)
        return min(value, self.decay)

    @torch.no_grad()
    def step(self, parameters):
        self.optimization_step += 1
        one_minus_decay = 1 - self.get_decay(self.optimization_step)
        for s_param, param in zip(self.shadow_params, parameters):
            if param.requires_grad:
                s_param.sub_(one_minus_decay * (s_param - param))

    def to(self, device=None, dtype=None):
        self.shadow_params = [p.to(device=device, dtype=dtype) if p.is_floating_point() else p.to(device=device)
                              for p in self.shadow_params]

class Accelerator:
    device = torch.device("cuda:0")
    def prepare(self, *objs):
        return tuple(o.to(self.device) if isinstance(o, nn.Module) else o for o in objs)

accelerator = Accelerator()
unet = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, 4, 3, padding=1))
ema_unet = EMAModel(unet.parameters())
optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4)
unet, optimizer = accelerator.prepare(unet, optimizer)

for p in unet.parameters():       # stand-in for accelerator.backward(loss)
    p.grad = torch.ones_like(p)
optimizer.step()
'''
CELL = '''
ema_unet.step(unet.parameters())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ema_unet"]
FIX = "namespace"
REFERENCE_FIX = '''
ema_unet.to(accelerator.device)
'''
REFERENCE_EDIT = None
CLEAN = False
