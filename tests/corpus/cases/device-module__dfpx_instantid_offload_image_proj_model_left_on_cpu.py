"""InstantID's SDXL pipeline with `enable_model_cpu_offload()`: the IP-Adapter `image_proj_model` is outside the offload hooks and stays on the CPU.

Source: https://github.com/instantX-research/InstantID/issues/34
With `pipe.enable_model_cpu_offload()` the custom `StableDiffusionXLInstantIDPipeline` failed with
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(when checking argument for argument mat1 in method wrapper_CUDA_addmm)". `load_ip_adapter_instantid`
builds the Resampler `image_proj_model` with `.to(self.device)` (the CPU under offload) and it is no
offloaded component, while `_encode_prompt_image_emb` moves the face embedding to the execution
device. The reporter's fix: move the embedding to `self.image_proj_model.latents.device` before the
projection and the result back to `device` (the maintainer's reply that it worked for them used
`pipe.cuda()` after enabling offload, which keeps everything on the GPU).
Stand-ins: accelerate-like offload hooks (move to cuda:0 when called; no move back), a tiny UNet and
ControlNet, InstantID's Resampler reduced to latents + projection, the pipeline's method names.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
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

class Resampler(nn.Module):                         # ip_adapter.resampler.Resampler (stand-in)
    def __init__(self, dim=32, num_queries=4, embedding_dim=64, output_dim=32):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(1, num_queries, dim) / dim ** 0.5)
        self.proj_in = nn.Linear(embedding_dim, dim)
        self.proj_out = nn.Linear(dim, output_dim)
    def forward(self, x):
        x = self.proj_in(x)
        latents = self.latents.repeat(x.size(0), 1, 1) + x.mean(1, keepdim=True)
        return self.proj_out(latents)

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states, down_block_additional_residuals=None):
        h = self.conv(latents) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]
        return h if down_block_additional_residuals is None else h + down_block_additional_residuals

class ControlNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond = nn.Conv2d(3, 4, 8, stride=8)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states, controlnet_cond, conditioning_scale=1.0):
        return (self.cond(controlnet_cond) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]) * conditioning_scale

class StableDiffusionXLInstantIDPipeline:
    def __init__(self, unet, controlnet):
        self.unet, self.controlnet = unet, controlnet
        self.dtype = torch.float32

    @classmethod
    def from_pretrained(cls, base_model_path, controlnet=None, torch_dtype=torch.float32):
        return cls(UNet2DConditionModel(), controlnet)

    @property
    def device(self):
        return next(self.unet.parameters()).device

    def enable_model_cpu_offload(self, device="cuda:0"):
        self._execution_device = torch.device(device)
        for model in (self.unet, self.controlnet):
            add_hook_to_module(model, CpuOffload(self._execution_device))

    def load_ip_adapter_instantid(self, model_ckpt, image_emb_dim=64, num_tokens=4):
        image_proj_model = Resampler(dim=32, num_queries=num_tokens, embedding_dim=image_emb_dim, output_dim=32)
        image_proj_model.eval()
        self.image_proj_model = image_proj_model.to(self.device, dtype=self.dtype)
        self.image_proj_model_in_features = image_emb_dim

    def _encode_prompt_image_emb(self, prompt_image_emb, device, dtype, do_classifier_free_guidance):
        prompt_image_emb = torch.as_tensor(prompt_image_emb)
        prompt_image_emb = prompt_image_emb.to(device=device, dtype=dtype)
        prompt_image_emb = prompt_image_emb.reshape([1, -1, self.image_proj_model_in_features])
        if do_classifier_free_guidance:
            prompt_image_emb = torch.cat([torch.zeros_like(prompt_image_emb), prompt_image_emb], dim=0)
        prompt_image_emb = self.image_proj_model(prompt_image_emb)
        return prompt_image_emb

    @torch.no_grad()
    def __call__(self, prompt_embeds, image_embeds, image, controlnet_conditioning_scale=0.8,
                 num_inference_steps=3, guidance_scale=5.0):
        device = self._execution_device
        do_cfg = guidance_scale > 1.0
        prompt_image_emb = self._encode_prompt_image_emb(image_embeds, device, self.dtype, do_cfg)
        prompt_embeds = torch.cat([prompt_embeds.to(device)] * (2 if do_cfg else 1), dim=0)
        encoder_hidden_states = torch.cat([prompt_embeds, prompt_image_emb], dim=1)
        image = torch.cat([image.to(device)] * (2 if do_cfg else 1), dim=0)
        latents = torch.randn(1, 4, image.shape[-2] // 8, image.shape[-1] // 8, device=device)
        for t in range(num_inference_steps):
            latent_model_input = torch.cat([latents] * (2 if do_cfg else 1))
            res = self.controlnet(latent_model_input, t, prompt_image_emb, image, controlnet_conditioning_scale)
            noise_pred = self.unet(latent_model_input, t, encoder_hidden_states, down_block_additional_residuals=res)
            if do_cfg:
                uncond, text = noise_pred.chunk(2)
                noise_pred = uncond + guidance_scale * (text - uncond)
            latents = latents - 0.1 * noise_pred
        return SimpleNamespace(images=latents)

controlnet = ControlNetModel()                      # ControlNetModel.from_pretrained(controlnet_path, torch_dtype=torch.float16)
pipe = StableDiffusionXLInstantIDPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0", controlnet=controlnet)
pipe.enable_model_cpu_offload()
pipe.load_ip_adapter_instantid("./checkpoints/ip-adapter.bin")
face_emb = torch.randn(64)                          # insightface embedding (numpy in the app)
face_kps = torch.rand(1, 3, 64, 64)                 # draw_kps(...), preprocessed
prompt_embeds = torch.randn(1, 7, 32)
'''
CELL = '''
images = pipe(prompt_embeds=prompt_embeds, image_embeds=face_emb, image=face_kps,
              controlnet_conditioning_scale=0.8, num_inference_steps=3, guidance_scale=5.0).images
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        prompt_image_emb = self.image_proj_model(prompt_image_emb)
        return prompt_image_emb
""", """        prompt_image_emb = prompt_image_emb.to(
            device=self.image_proj_model.latents.device,
            dtype=self.image_proj_model.latents.dtype
        )
        prompt_image_emb = self.image_proj_model(prompt_image_emb)
        return prompt_image_emb.to(device=device, dtype=dtype)
""")
CLEAN = False
