"""SDXL img2img with Playground v2.5 and model CPU offload: `latents_mean` is moved to `self.device` (the CPU), not the execution device.

Source: https://github.com/huggingface/diffusers/issues/8523
`StableDiffusionXLImg2ImgPipeline.from_pretrained(playground-v2.5, torch_dtype=torch.float16)` with
`pipe.enable_model_cpu_offload()` (no `.to("cuda")`) failed in `prepare_latents` at
`init_latents = (init_latents - latents_mean) * self.vae.config.scaling_factor / latents_std` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
The reporter's diagnosis: the models stay on the CPU under offload, so `self.device` is the CPU; the
VAE config's `latents_mean`/`latents_std` must go to `device` (the execution device) instead.
Stand-ins: accelerate-like offload hooks that move a model to cuda:0 when it is called (the move
back is left out), a pipeline whose `device` reports its first component (the UNet, still on the
CPU at that point), a tiny text encoder, UNet and VAE with Playground's latents_mean/std config.
The report's `torch_dtype=torch.float16` is written float32 (the simulated GPU checks devices only).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import functools
from types import SimpleNamespace
import torch
import torch.nn as nn

class CpuOffload:                                   # accelerate.hooks.CpuOffload (stand-in)
    def __init__(self, execution_device):
        self.execution_device = execution_device

    def pre_forward(self, module, *args, **kwargs):
        module.to(self.execution_device)
        return args, kwargs

def add_hook_to_module(module, hook):
    module._hf_hook = hook
    old_forward = module.forward
    @functools.wraps(old_forward)
    def new_forward(*args, **kwargs):
        args, kwargs = module._hf_hook.pre_forward(module, *args, **kwargs)
        return old_forward(*args, **kwargs)
    module.forward = new_forward
    return module

def apply_forward_hook(method):                     # diffusers.utils.accelerate_utils (stand-in)
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if hasattr(self, "_hf_hook"):
            self._hf_hook.pre_forward(self)
        return method(self, *args, **kwargs)
    return wrapper

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 32)
        self.proj = nn.Linear(32, 32)
    def forward(self, ids):
        return self.proj(self.embed(ids))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states):
        return self.conv(latents) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(scaling_factor=0.5,
                                      latents_mean=[-1.6574, 1.886, -1.383, 2.5155],
                                      latents_std=[8.4927, 5.9022, 6.5498, 5.2299])
        self.encoder = nn.Conv2d(3, 4, 8, stride=8)
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=8), nn.Conv2d(4, 3, 3, padding=1))
    @apply_forward_hook
    def encode(self, x):
        return self.encoder(x)
    @apply_forward_hook
    def decode(self, z):
        return self.decoder(z)

class StableDiffusionXLImg2ImgPipeline:
    def __init__(self, unet, vae, text_encoder, scheduler=None):
        self.unet, self.vae, self.text_encoder, self.scheduler = unet, vae, text_encoder, scheduler

    @classmethod
    def from_pretrained(cls, path, torch_dtype=torch.float32, add_watermarker=False):
        return cls(UNet2DConditionModel(), AutoencoderKL(), CLIPTextModel())

    @property
    def device(self):                               # the first component's device
        for module in (self.unet, self.vae, self.text_encoder):
            return next(module.parameters()).device

    @property
    def _execution_device(self):
        return self.unet._hf_hook.execution_device if hasattr(self.unet, "_hf_hook") else self.device

    def enable_model_cpu_offload(self, device="cuda:0"):
        for model in (self.text_encoder, self.unet, self.vae):
            add_hook_to_module(model, CpuOffload(torch.device(device)))

    def prepare_latents(self, image, timestep, batch_size, dtype, device):
        latents_mean = latents_std = None
        if getattr(self.vae.config, "latents_mean", None) is not None:
            latents_mean = torch.tensor(self.vae.config.latents_mean).view(1, 4, 1, 1)
        if getattr(self.vae.config, "latents_std", None) is not None:
            latents_std = torch.tensor(self.vae.config.latents_std).view(1, 4, 1, 1)
        image = image.to(device=device, dtype=dtype)
        init_latents = self.vae.encode(image)
        init_latents = init_latents.to(dtype)
        if latents_mean is not None and latents_std is not None:
            latents_mean = latents_mean.to(device=self.device, dtype=dtype)
            latents_std = latents_std.to(device=self.device, dtype=dtype)
            init_latents = (init_latents - latents_mean) * self.vae.config.scaling_factor / latents_std
        noise = torch.randn(init_latents.shape, device=device, dtype=dtype)
        return init_latents + timestep * noise

    @torch.no_grad()
    def __call__(self, prompt_ids, image, strength=0.3, num_inference_steps=4):
        device = self._execution_device
        prompt_embeds = self.text_encoder(prompt_ids.to(device))
        latents = self.prepare_latents(image, strength, 1, prompt_embeds.dtype, device)
        for t in range(int(num_inference_steps * strength) + 1):
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds)
        return SimpleNamespace(images=self.vae.decode(latents))

sd_xl_path = "../models/Stable-diffusion/playground-v2.5-xl-aesthetic"
pipe = StableDiffusionXLImg2ImgPipeline.from_pretrained(sd_xl_path, torch_dtype=torch.float32, add_watermarker=False)
pipe.enable_model_cpu_offload()
image = torch.rand(1, 3, 64, 64)                   # Image.open(img_path), preprocessed
prompt_ids = torch.randint(0, 100, (1, 7))         # tokenized "a beautiful girl"
'''
CELL = '''
images = pipe(prompt_ids, image=image, strength=0.3, num_inference_steps=4).images
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            latents_mean = latents_mean.to(device=self.device, dtype=dtype)
            latents_std = latents_std.to(device=self.device, dtype=dtype)""",
                  """            latents_mean = latents_mean.to(device=device, dtype=dtype)
            latents_std = latents_std.to(device=device, dtype=dtype)""")
CLEAN = False
