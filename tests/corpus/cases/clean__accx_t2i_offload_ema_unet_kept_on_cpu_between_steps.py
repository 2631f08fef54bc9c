"""Look-alike: text-to-image fine-tuning with `--use_ema --offload_ema`: the EMA copy of the UNet stays on the CPU and visits cuda:0 only for `ema_unet.step`.

Source: https://github.com/huggingface/diffusers/blob/main/examples/text_to_image/train_text_to_image.py
`--offload_ema` ("Offload EMA model to CPU during training step") keeps `ema_unet` pinned on the CPU instead of
`ema_unet.to(accelerator.device)`. After each optimizer sync the loop does
`ema_unet.to(device="cuda", non_blocking=True)`, `ema_unet.step(unet.parameters())`,
`ema_unet.to(device="cpu", non_blocking=True)`. The EMA shadow parameters on the CPU next to a cuda:0 UNet are
by design; the update itself runs with both on the GPU. Stand-ins: diffusers' `EMAModel` (shadow params,
decay, `step`, `to`, `pin_memory`; "cuda" resolved to the current device, cuda:0, as torch does) and a small
UNet already prepared on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn


class EMAModel:
    """diffusers.training_utils.EMAModel, reduced to what the loop uses."""
    def __init__(self, parameters, decay=0.9999):
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.decay = decay
        self.optimization_step = 0

    @torch.no_grad()
    def step(self, parameters):
        self.optimization_step += 1
        one_minus_decay = 1 - self.decay
        for s_param, param in zip(self.shadow_params, parameters):
            if param.requires_grad:
                s_param.sub_(one_minus_decay * (s_param - param))
            else:
                s_param.copy_(param)

    def to(self, device=None, dtype=None, non_blocking=False):
        device = torch.device(device)
        if device.type == "cuda" and device.index is None:
            device = torch.device("cuda", 0)          # torch resolves "cuda" to the current device
        self.shadow_params = [p.to(device=device, dtype=dtype, non_blocking=non_blocking)
                              if p.is_floating_point() else p.to(device=device, non_blocking=non_blocking)
                              for p in self.shadow_params]

    def pin_memory(self):
        pass                                        # page-locks the CPU copies


class UNet2DConditionModel(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.time_proj = nn.Linear(1, ch)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, t):
        return self.conv_out(self.conv_in(sample) + self.time_proj(t[:, None].float())[:, :, None, None])


args = SimpleNamespace(use_ema=True, offload_ema=True)
accelerator = SimpleNamespace(device=torch.device("cuda:0"), sync_gradients=True)

unet = UNet2DConditionModel()
# Create EMA for the unet.
ema_unet = EMAModel(unet.parameters())
unet = unet.to(accelerator.device)                  # accelerator.prepare(unet, ...)
if args.use_ema:
    if args.offload_ema:
        ema_unet.pin_memory()
    else:
        ema_unet.to(accelerator.device)
'''
CELL = '''
# Checks if the accelerator has performed an optimization step behind the scenes
if accelerator.sync_gradients:
    if args.use_ema:
        if args.offload_ema:
            ema_unet.to(device="cuda", non_blocking=True)
        ema_unet.step(unet.parameters())
        if args.offload_ema:
            ema_unet.to(device="cpu", non_blocking=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
