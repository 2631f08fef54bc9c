"""InvokeAI with `enable_partial_loading`: the text conditioning handed to the UNet step is still on the CPU while the latents are on CUDA.

Source: https://github.com/invoke-ai/InvokeAI/pull/8970
Issue #8850: after updating, every SD/SDXL generation failed with "RuntimeError: Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" unless
`enable_partial_loading: false` was set. The PR's root cause: with partial loading the conditioning
embeddings (`uncond_text.embeds`, `cond_text.embeds`) may remain on the CPU, and
`_apply_standard_conditioning` passes them straight to `model_forward_callback` while the UNet
input `x` is on CUDA. Its fix moves the conditioning tensors to `x.device` before the call (the
PR was closed without merging; its diagnosis is the only cause given for #8850).
Stand-ins: TextConditioningData / BasicConditioningInfo, InvokeAIDiffuserComponent's
batched-CFG step and a tiny cross-attention UNet; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class BasicConditioningInfo:
    embeds: torch.Tensor

@dataclass
class TextConditioningData:
    uncond_text: BasicConditioningInfo
    cond_text: BasicConditioningInfo
    guidance_scale: float = 7.5

class TinyCrossAttnUNet(nn.Module):
    def __init__(self, channels=4, context_dim=64, inner=32):
        super().__init__()
        self.conv_in = nn.Conv2d(channels, inner, 3, padding=1)
        self.to_k = nn.Linear(context_dim, inner)
        self.to_v = nn.Linear(context_dim, inner)
        self.conv_out = nn.Conv2d(inner, channels, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states):
        h = self.conv_in(sample)
        b, c, hh, ww = h.shape
        q = h.flatten(2).transpose(1, 2)
        k = self.to_k(encoder_hidden_states)
        v = self.to_v(encoder_hidden_states)
        attn = torch.softmax(q @ k.transpose(1, 2) / c ** 0.5, dim=-1)
        h = h + (attn @ v).transpose(1, 2).reshape(b, c, hh, ww)
        return self.conv_out(h)

class InvokeAIDiffuserComponent:
    def __init__(self, model, model_forward_callback):
        self.model = model
        self.model_forward_callback = model_forward_callback

    def _apply_standard_conditioning(self, x, sigma, conditioning_data):
        x_twice = torch.cat([x] * 2)
        sigma_twice = torch.cat([sigma] * 2)
        both_conditionings = torch.cat([conditioning_data.uncond_text.embeds, conditioning_data.cond_text.embeds])
        both_results = self.model_forward_callback(x_twice, sigma_twice, both_conditionings)
        unconditioned_next_x, conditioned_next_x = both_results.chunk(2)
        return unconditioned_next_x, conditioned_next_x

    def do_unet_step(self, sample, timestep, conditioning_data):
        uncond, cond = self._apply_standard_conditioning(sample, timestep, conditioning_data)
        return uncond + conditioning_data.guidance_scale * (cond - uncond)

device = torch.device("cuda:0")
unet = TinyCrossAttnUNet().to(device)          # partially loaded UNet: compute runs on cuda:0
invokeai_diffuser = InvokeAIDiffuserComponent(
    unet, model_forward_callback=lambda x, t, ctx: unet(x, t, encoder_hidden_states=ctx))
# compel conditioning loaded from the conditioning store (kept CPU-backed)
conditioning_data = TextConditioningData(
    uncond_text=BasicConditioningInfo(embeds=torch.randn(1, 77, 64)),
    cond_text=BasicConditioningInfo(embeds=torch.randn(1, 77, 64)),
)
latents = torch.randn(1, 4, 8, 8, device=device)
timestep = torch.tensor([999.0], device=device)
'''
CELL = '''
noise_pred = invokeai_diffuser.do_unet_step(sample=latents, timestep=timestep, conditioning_data=conditioning_data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["conditioning_data.uncond_text.embeds", "conditioning_data.cond_text.embeds"]
FIX = "namespace"
REFERENCE_FIX = '''
conditioning_data.uncond_text.embeds = conditioning_data.uncond_text.embeds.to(latents.device)
conditioning_data.cond_text.embeds = conditioning_data.cond_text.embeds.to(latents.device)
'''
REFERENCE_EDIT = None
CLEAN = False
