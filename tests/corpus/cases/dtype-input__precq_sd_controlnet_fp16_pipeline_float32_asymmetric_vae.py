"""An fp16 StableDiffusionControlNetPipeline built with a separately loaded float32 VAE: decoding the half latents fails.

Source: https://github.com/huggingface/diffusers/issues/7572
The user loaded `vae = AsymmetricAutoencoderKL.from_pretrained("cross-attention/asymmetric-autoencoder-kl-x-1-5")`
(no `torch_dtype`, so float32), the ControlNet with `torch_dtype=torch.float16`, and passed both to
`StableDiffusionControlNetPipeline.from_pretrained(..., torch_dtype=torch.float16, vae=vae,
controlnet=controlnet, ...).to("cuda")`: "Input type (c10::Half) and bias type (float) should be the
same". `torch_dtype` only applies to the components the pipeline loads itself; a component passed
in keeps its own dtype, so the VAE stayed float32 while the latents are fp16. The fix: load the VAE
with `torch_dtype=torch.float16` too (or cast it).
Stand-ins: a small UNet, ControlNet, text-free pipeline (prompt embeddings given, as in the report)
and an Asymmetric-VAE decoder; DDPM-like update; runs on the CPU (dtype bug only), so the
pipeline is moved to `device = "cpu"` instead of "cuda".
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)
        self.cond = nn.Linear(32, 16)
        self.conv_out = nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, sample, t, encoder_hidden_states, down_block_additional_residuals=None):
        h = self.conv_in(sample) + self.cond(encoder_hidden_states.mean(1))[:, :, None, None]
        if down_block_additional_residuals is not None:
            h = h + down_block_additional_residuals
        return self.conv_out(torch.relu(h))

class ControlNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_embedding = nn.Conv2d(3, 16, 8, stride=8)
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)

    @classmethod
    def from_pretrained(cls, name, token=None, torch_dtype=torch.float32):
        return cls().to(torch_dtype)

    def forward(self, sample, t, encoder_hidden_states, controlnet_cond, conditioning_scale=1.0):
        return (self.conv_in(sample) + self.cond_embedding(controlnet_cond)) * conditioning_scale

class AsymmetricAutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(scaling_factor=0.18215)
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.SiLU(),
                                     nn.Upsample(scale_factor=8), nn.Conv2d(16, 3, 3, padding=1))

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls().to(torch_dtype)

    def decode(self, z, return_dict=False):
        return (self.decoder(self.post_quant_conv(z)),)

class StableDiffusionControlNetPipeline:
    def __init__(self, unet, vae, controlnet):
        self.unet, self.vae, self.controlnet = unet, vae, controlnet

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32, vae=None, controlnet=None, token=None, safety_checker=None):
        unet = UNet2DConditionModel().to(torch_dtype)          # loaded by the pipeline: gets torch_dtype
        vae = vae if vae is not None else AsymmetricAutoencoderKL().to(torch_dtype)   # passed in: kept as is
        return cls(unet, vae, controlnet)

    def to(self, device):
        for m in (self.unet, self.vae, *self.controlnet):
            m.to(device)
        return self

    @torch.no_grad()
    def __call__(self, prompt_embeds, image, width=64, height=64, num_images_per_prompt=1,
                 controlnet_conditioning_scale=1.0, num_inference_steps=3, output_type="pil"):
        dtype = prompt_embeds.dtype
        cond = image.to(dtype)
        latents = torch.randn(num_images_per_prompt, 4, height // 8, width // 8, dtype=dtype)
        for t in range(num_inference_steps):
            res = sum(cn(latents, t, prompt_embeds, cond, controlnet_conditioning_scale) for cn in self.controlnet)
            noise_pred = self.unet(latents, t, prompt_embeds, down_block_additional_residuals=res)
            latents = latents - 0.1 * noise_pred
        image = self.vae.decode(latents / self.vae.config.scaling_factor, return_dict=False)[0]
        return SimpleNamespace(images=image)

device = "cpu"      # "cuda" in the report
vae = AsymmetricAutoencoderKL.from_pretrained("cross-attention/asymmetric-autoencoder-kl-x-1-5")
controlnet = [
    ControlNetModel.from_pretrained("lllyasviel/control_v11p_sd15_openpose", token=None, torch_dtype=torch.float16),
]
pipeline = StableDiffusionControlNetPipeline.from_pretrained(
    "stablediffusionapi/majicmix7", torch_dtype=torch.float16, vae=vae, controlnet=controlnet, token=None, safety_checker=None
).to(device)
prompt_embeds = torch.randn(1, 7, 32, dtype=torch.float16)
openpose_image = torch.rand(1, 3, 64, 64)
'''
CELL = '''
images = pipeline(
    prompt_embeds=prompt_embeds,
    image=[openpose_image][0],
    width=64,
    height=64,
    controlnet_conditioning_scale=1.0,
    num_inference_steps=3,
).images
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["vae"]
FIX = "namespace"
REFERENCE_FIX = '''
vae.half()
'''
REFERENCE_EDIT = None
CLEAN = False
