"""Look-alike: ControlNet training under fp16: a float32 ControlNet (prepared by accelerate) feeds an fp16 UNet, its residuals cast to `weight_dtype` at the call.

Source: https://github.com/huggingface/diffusers/blob/main/examples/controlnet/train_controlnet.py
The trainable `controlnet` stays in float32 and goes through `accelerator.prepare` (autocast inside, outputs
converted back to float32), while the frozen `unet`, `vae` and `text_encoder` are cast to `weight_dtype`
(fp16). The UNet call passes `down_block_additional_residuals=[sample.to(dtype=weight_dtype) for sample in
down_block_res_samples]` and `mid_block_additional_residual=mid_block_res_sample.to(dtype=weight_dtype)`, so
the float32 tensors in the namespace never reach an fp16 layer. Mixed float32/fp16 models side by side by
design. Stand-ins: accelerate's mixed-precision forward wrapper and small ControlNet/UNet classes.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace


def convert_outputs_to_fp32(forward):
    """accelerate.utils.convert_outputs_to_fp32: recursively upcast fp16/bf16 outputs."""
    def convert(o):
        if isinstance(o, torch.Tensor) and o.dtype in (torch.float16, torch.bfloat16):
            return o.float()
        if isinstance(o, (list, tuple)):
            return type(o)(convert(x) for x in o)
        return o

    def wrapped(*args, **kwargs):
        return convert(forward(*args, **kwargs))
    return wrapped


class Accelerator:
    def __init__(self, mixed_precision="no"):
        self.mixed_precision = mixed_precision
        self.device = torch.device("cpu")

    def prepare(self, *objs):
        out = []
        for obj in objs:
            if isinstance(obj, nn.Module):
                obj.to(self.device)
                if self.mixed_precision == "fp16":
                    obj.forward = convert_outputs_to_fp32(
                        torch.autocast(self.device.type, dtype=torch.float16)(obj.forward))
            out.append(obj)
        return tuple(out)


class ControlNetModel(nn.Module):
    def __init__(self, ch=8, cross=16):
        super().__init__()
        self.cond_embedding = nn.Conv2d(3, ch, 3, padding=1)
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 3, padding=1)
        self.ctx = nn.Linear(cross, ch)
        self.zero_convs = nn.ModuleList([nn.Conv2d(ch, ch, 1), nn.Conv2d(ch, ch, 1)])
        self.mid_zero = nn.Conv2d(ch, ch, 1)

    def forward(self, sample, timestep, encoder_hidden_states, controlnet_cond, return_dict=True):
        h = self.conv_in(sample) + self.cond_embedding(controlnet_cond)
        h = h + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]
        res = [h]
        h = self.down(h)
        res.append(h)
        down_block_res_samples = [zc(r) for zc, r in zip(self.zero_convs, res)]
        mid_block_res_sample = self.mid_zero(h)
        return down_block_res_samples, mid_block_res_sample


class UNet2DConditionModel(nn.Module):
    def __init__(self, ch=8, cross=16):
        super().__init__()
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 3, padding=1)
        self.ctx = nn.Linear(cross, ch)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states,
                down_block_additional_residuals=None, mid_block_additional_residual=None):
        sample = self.conv_in(sample)
        down_block_res_samples = [sample]
        sample = self.down(sample)
        down_block_res_samples.append(sample)
        if down_block_additional_residuals is not None:
            down_block_res_samples = [r + a for r, a in zip(down_block_res_samples, down_block_additional_residuals)]
        sample = self.mid(sample + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None])
        if mid_block_additional_residual is not None:
            sample = sample + mid_block_additional_residual
        sample = self.up(torch.cat([sample, down_block_res_samples[-1]], dim=1))
        return SimpleNamespace(sample=self.conv_out(sample))


accelerator = Accelerator(mixed_precision="fp16")
unet = UNet2DConditionModel()
controlnet = ControlNetModel()
optimizer = torch.optim.AdamW(controlnet.parameters(), lr=1e-5)
controlnet, optimizer = accelerator.prepare(controlnet, optimizer)

# For mixed precision training we cast the text_encoder and vae weights to half-precision
weight_dtype = torch.float32
if accelerator.mixed_precision == "fp16":
    weight_dtype = torch.float16
unet.to(accelerator.device, dtype=weight_dtype)

# one training step, up to the ControlNet call (latents and text embeddings come out of the fp16 vae/text encoder)
noisy_latents = torch.randn(2, 4, 8, 8, dtype=weight_dtype)
timesteps = torch.randint(0, 1000, (2,))
encoder_hidden_states = torch.randn(2, 7, 16, dtype=weight_dtype)
controlnet_image = torch.rand(2, 3, 8, 8).to(dtype=weight_dtype)
down_block_res_samples, mid_block_res_sample = controlnet(
    noisy_latents,
    timesteps,
    encoder_hidden_states=encoder_hidden_states,
    controlnet_cond=controlnet_image,
    return_dict=False,
)
'''
CELL = '''
model_pred = unet(
    noisy_latents,
    timesteps,
    encoder_hidden_states=encoder_hidden_states,
    down_block_additional_residuals=[
        sample.to(dtype=weight_dtype) for sample in down_block_res_samples
    ],
    mid_block_additional_residual=mid_block_res_sample.to(dtype=weight_dtype),
).sample
target = torch.randn_like(model_pred)
loss = torch.nn.functional.mse_loss(model_pred.float(), target.float(), reduction="mean")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
