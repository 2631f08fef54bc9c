"""A second SDXL pipeline built from an offloaded pipeline's components: the new ControlNet gets no offload hook and stays on the CPU.

Source: https://github.com/huggingface/diffusers/issues/5281
The user loaded `StableDiffusionXLPipeline`, called `pipeline.enable_model_cpu_offload()`, then built
`pipeline_controlnet = StableDiffusionXLControlNetPipeline(controlnet=controlnet, **pipeline.components)`;
calling it raised "Expected all tensors to be on the same device". The user's diagnosis in the
thread: the new pipeline inherits the offload state (`pipeline_controlnet.device` is cpu,
`_execution_device` is cuda:0) but "the ControlNet model itself is not set to execute on the GPU. It
remains on the CPU and this is what triggers the first error"; enabling model CPU offload on the
ControlNet pipeline (the one holding the ControlNet) made the calls work.
Stand-ins: accelerate-like offload hooks (move a model to cuda:0 when called; the move back is left
out), tiny SDXL text encoder/UNet/ControlNet, both pipelines with diffusers' `components` and
`enable_model_cpu_offload`. The stand-ins ignore `torch_dtype` (the simulated GPU checks devices only).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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
    old_forward = getattr(module, "_old_forward", module.forward)
    module._old_forward = old_forward
    @functools.wraps(old_forward)
    def new_forward(*args, **kwargs):
        args, kwargs = module._hf_hook.pre_forward(module, *args, **kwargs)
        return old_forward(*args, **kwargs)
    module.forward = new_forward
    return module

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 32)
        self.proj = nn.Linear(32, 32)
    def forward(self, ids):
        return self.proj(self.embed(ids))

def get_timestep_embedding(t, dim, device):
    freqs = torch.exp(-torch.arange(dim // 2, dtype=torch.float32, device=device) / (dim // 2))
    args = torch.full((1,), float(t), device=device)[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embedding = nn.Linear(16, 4)
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states, down_block_additional_residuals=None):
        emb = self.time_embedding(get_timestep_embedding(t, 16, latents.device))
        h = self.conv(latents) + (self.ctx(encoder_hidden_states.mean(1)) + emb)[:, :, None, None]
        return h if down_block_additional_residuals is None else h + down_block_additional_residuals

class ControlNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embedding = nn.Linear(16, 4)
        self.controlnet_cond_embedding = nn.Conv2d(3, 4, 8, stride=8)
    @classmethod
    def from_pretrained(cls, path, torch_dtype=torch.float32, variant=None, use_safetensors=True):
        return cls()
    def forward(self, latents, t, encoder_hidden_states, controlnet_cond, conditioning_scale=1.0):
        emb = self.time_embedding(get_timestep_embedding(t, 16, latents.device))
        return (self.controlnet_cond_embedding(controlnet_cond) + emb[:, :, None, None]) * conditioning_scale

class DiffusionPipeline:
    model_cpu_offload_seq = "text_encoder->unet"
    @property
    def components(self):
        return {k: getattr(self, k) for k in ("text_encoder", "unet")}
    @property
    def device(self):
        return next(self.unet.parameters()).device
    def enable_model_cpu_offload(self, gpu_id=0):
        self._execution_device = torch.device(f"cuda:{gpu_id}")
        for name in self.model_cpu_offload_seq.split("->"):
            add_hook_to_module(getattr(self, name), CpuOffload(self._execution_device))

class StableDiffusionXLPipeline(DiffusionPipeline):
    def __init__(self, text_encoder, unet):
        self.text_encoder, self.unet = text_encoder, unet
    @classmethod
    def from_pretrained(cls, path, torch_dtype=torch.float32, variant=None, use_safetensors=True):
        return cls(CLIPTextModel(), UNet2DConditionModel())
    @torch.no_grad()
    def __call__(self, prompt_ids, num_inference_steps=3):
        device = self._execution_device
        prompt_embeds = self.text_encoder(prompt_ids.to(device))
        latents = torch.randn(1, 4, 8, 8, device=device)
        for t in range(num_inference_steps):
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds)
        return SimpleNamespace(images=latents)

class StableDiffusionXLControlNetPipeline(DiffusionPipeline):
    model_cpu_offload_seq = "text_encoder->unet->controlnet"
    def __init__(self, text_encoder, unet, controlnet):
        self.text_encoder, self.unet, self.controlnet = text_encoder, unet, controlnet
        if hasattr(unet, "_hf_hook"):                # inherits the offload state of the shared models
            self._execution_device = unet._hf_hook.execution_device
    @torch.no_grad()
    def __call__(self, prompt_ids, image, num_inference_steps=3, controlnet_conditioning_scale=0.5):
        device = self._execution_device
        prompt_embeds = self.text_encoder(prompt_ids.to(device))
        image = image.to(device)
        latents = torch.randn(1, 4, image.shape[-2] // 8, image.shape[-1] // 8, device=device)
        for t in range(num_inference_steps):
            res = self.controlnet(latents, t, prompt_embeds, image, controlnet_conditioning_scale)
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds, down_block_additional_residuals=res)
        return SimpleNamespace(images=latents)

MODEL_PATH = "stabilityai/stable-diffusion-xl-base-1.0"
pipeline = StableDiffusionXLPipeline.from_pretrained(MODEL_PATH, torch_dtype=torch.float16, variant="fp16", use_safetensors=True)
pipeline.enable_model_cpu_offload()
controlnet = ControlNetModel.from_pretrained("diffusers/controlnet-depth-sdxl-1.0", torch_dtype=torch.float16)
pipeline_controlnet = StableDiffusionXLControlNetPipeline(controlnet=controlnet, **pipeline.components)
prompt_ids = torch.randint(0, 100, (1, 7))         # compel / tokenizer output for the prompt
depth_image = torch.rand(1, 3, 64, 64)
'''
CELL = '''
image = pipeline_controlnet(prompt_ids, image=depth_image, num_inference_steps=3,
                            controlnet_conditioning_scale=0.5).images
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipeline_controlnet"]
FIX = "namespace"
REFERENCE_FIX = '''
pipeline_controlnet.enable_model_cpu_offload()
'''
REFERENCE_EDIT = None
CLEAN = False
