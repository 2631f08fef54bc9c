"""WanImageToVideoPipeline with model CPU offload: `encode_image` feeds the image processor's CPU pixel values to the GPU image encoder.

Source: https://github.com/huggingface/diffusers/issues/11162
"Currently WAN I2V fails with offloaded model since `image_processor` returns image tensors on cpu
while `image_encoder` gets moved to gpu by accelerate hook according to execution_device." The
reporter's patch, which closed the issue: in `encode_image`, take `device = device or
self._execution_device` and move the processor output there (`self.image_processor(images=image,
return_tensors="pt").to(device)`).
Stand-ins: accelerate-like offload hooks (move a model to cuda:0 when called; the move back is left
out), a CLIPImageProcessor returning a BatchFeature on the CPU, a CLIP vision encoder with a linear
patch embedding, a tiny Wan transformer; the pipeline keeps diffusers' method names.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import functools
from types import SimpleNamespace
from typing import Optional
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

class BatchFeature(dict):
    def to(self, device):
        return BatchFeature({k: v.to(device) for k, v in self.items()})

class CLIPImageProcessor:
    def __call__(self, images, return_tensors="pt"):
        return BatchFeature(pixel_values=images.float().clamp(0, 1))     # resize/normalize, on the CPU

class CLIPVisionModel(nn.Module):
    def __init__(self, patch=8, dim=32):
        super().__init__()
        self.patch = patch
        self.patch_embedding = nn.Linear(3 * patch * patch, dim)
        self.class_embedding = nn.Parameter(torch.zeros(dim))
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(2)])
    def forward(self, pixel_values, output_hidden_states=False):
        b, c, h, w = pixel_values.shape
        p = self.patch
        patches = pixel_values.reshape(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5).reshape(b, -1, c * p * p)
        h_ = self.patch_embedding(patches)
        h_ = torch.cat([self.class_embedding.expand(b, 1, -1), h_], dim=1)
        hidden_states = [h_]
        for layer in self.layers:
            h_ = layer(h_)
            hidden_states.append(h_)
        return SimpleNamespace(last_hidden_state=h_, hidden_states=tuple(hidden_states))

class WanTransformer3DModel(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj_in = nn.Linear(16, dim)
        self.image_proj = nn.Linear(dim, dim)
        self.proj_out = nn.Linear(dim, 16)
    def forward(self, hidden_states, timestep, encoder_hidden_states_image):
        h = self.proj_in(hidden_states) + self.image_proj(encoder_hidden_states_image).mean(1, keepdim=True)
        return self.proj_out(h)

class WanImageToVideoPipeline:
    def __init__(self, transformer, image_encoder, image_processor):
        self.transformer, self.image_encoder, self.image_processor = transformer, image_encoder, image_processor

    @classmethod
    def from_pretrained(cls, model_id, torch_dtype=torch.float32):
        return cls(WanTransformer3DModel(), CLIPVisionModel(), CLIPImageProcessor())

    @property
    def _execution_device(self):
        return self.transformer._hf_hook.execution_device

    def enable_model_cpu_offload(self, device="cuda:0"):
        for model in (self.image_encoder, self.transformer):
            add_hook_to_module(model, CpuOffload(torch.device(device)))

    def encode_image(self, image, device: Optional[torch.device] = None):
        image = self.image_processor(images=image, return_tensors="pt")
        image_embeds = self.image_encoder(**image, output_hidden_states=True)
        return image_embeds.hidden_states[-2]

    @torch.no_grad()
    def __call__(self, image, num_frames=5, num_inference_steps=3):
        device = self._execution_device
        image_embeds = self.encode_image(image, device)
        latents = torch.randn(1, num_frames, 16, device=device)
        for t in range(num_inference_steps):
            latents = latents - 0.1 * self.transformer(latents, t, encoder_hidden_states_image=image_embeds)
        return SimpleNamespace(frames=latents)

pipe = WanImageToVideoPipeline.from_pretrained("Wan-AI/Wan2.1-I2V-14B-480P-Diffusers")
pipe.enable_model_cpu_offload()
image = torch.rand(1, 3, 32, 32)                   # load_image(...), as a tensor
'''
CELL = '''
output = pipe(image=image, num_frames=5, num_inference_steps=3).frames
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        image = self.image_processor(images=image, return_tensors="pt")
""",
                  """        device = device or self._execution_device
        image = self.image_processor(images=image, return_tensors="pt").to(device)
""")
CLEAN = False
