"""Look-alike: diffusers `--offload_ema`: the EMA UNet's shadow parameters live on the CPU and visit the GPU only for `step`.

Source: https://github.com/huggingface/diffusers/pull/7685
"Add extra performance features for EMAModel, torch._foreach operations and better support for
non-blocking CPU offloading". In `train_text_to_image.py`: `if args.offload_ema:
ema_unet.to(device="cuda", non_blocking=True)`, `ema_unet.step(unet.parameters())`, `if
args.offload_ema: ema_unet.to(device="cpu", non_blocking=True)`. Between steps the EMA copy sits on
the CPU next to a CUDA UNet, deliberately. Stand-in: `EMAModel` (shadow params, `step`, `to`) and a
small UNet-like model; pinning is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EMAModel:
    def __init__(self, parameters, decay=0.9999, foreach=False):
        parameters = list(parameters)
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.decay = decay
        self.foreach = foreach
        self.optimization_step = 0

    def get_decay(self, optimization_step):
        step = max(0, optimization_step - 1)
        return min((1 + step) / (10 + step), self.decay)

    @torch.no_grad()
    def step(self, parameters):
        parameters = list(parameters)
        self.optimization_step += 1
        one_minus_decay = 1 - self.get_decay(self.optimization_step)
        for s_param, param in zip(self.shadow_params, parameters):
            if param.requires_grad:
                s_param.sub_(one_minus_decay * (s_param - param))
            else:
                s_param.copy_(param)

    def to(self, device=None, dtype=None, non_blocking=False):
        self.shadow_params = [
            p.to(device=device, dtype=dtype, non_blocking=non_blocking) if p.is_floating_point()
            else p.to(device=device, non_blocking=non_blocking)
            for p in self.shadow_params
        ]

unet = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 4, 3, padding=1))
ema_unet = EMAModel(unet.parameters())           # created from the CPU model, before prepare()
unet.to("cuda:0")                                 # accelerator.prepare(unet, ...)
offload_ema = True                                # --offload_ema (ema_unet.pin_memory() in the script)
'''
CELL = '''
# after optimizer.step(), when accelerator.sync_gradients:
if offload_ema:
    ema_unet.to(device="cuda:0", non_blocking=True)
ema_unet.step(unet.parameters())
if offload_ema:
    ema_unet.to(device="cpu", non_blocking=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
