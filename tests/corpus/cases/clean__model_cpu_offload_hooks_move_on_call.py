"""Look-alike: with model CPU offload, the pipeline's models sit on the CPU while its latents are on the GPU.

Source: https://github.com/huggingface/diffusers/issues/2973
After `pipe.enable_model_cpu_offload()` the user saw different behaviour and `pipe.device` == cpu;
the maintainer answered that this is expected: "it's more important to understand that
`pipe.device` is `cpu` when doing model offload". Each model has an accelerate hook that moves it
to the execution device (cuda:0) when it is called, so CPU weights + cuda inputs is correct.
Stand-in: accelerate-like `_hf_hook`s (the move back to the CPU after use is left out, since
fake cuda weights cannot be copied back).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import functools
import torch
import torch.nn as nn

class CpuOffload:
    def __init__(self, execution_device):
        self.execution_device = execution_device

    def pre_forward(self, module, *args):
        module.to(self.execution_device)
        return tuple(a.to(self.execution_device) if isinstance(a, torch.Tensor) else a for a in args)

def add_hook_to_module(module, hook):
    module._hf_hook = hook
    module._old_forward = module.forward
    @functools.wraps(module._old_forward)
    def new_forward(*args):
        args = module._hf_hook.pre_forward(module, *args)
        return module._old_forward(*args)
    module.forward = new_forward
    return module

class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 24)
        self.proj = nn.Linear(24, 24)
    def forward(self, ids):
        return self.proj(self.embed(ids))

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(24, 4)
    def forward(self, latents, context):
        return self.conv(latents) + self.ctx(context.mean(1)).unsqueeze(-1).unsqueeze(-1)

class Pipeline:
    def __init__(self):
        self.text_encoder = TextEncoder()
        self.unet = UNet()
    @property
    def device(self):
        return next(self.unet.parameters()).device
    def enable_model_cpu_offload(self, device="cuda:0"):
        self._execution_device = torch.device(device)
        for model in (self.text_encoder, self.unet):
            add_hook_to_module(model, CpuOffload(self._execution_device))

pipe = Pipeline()
pipe.enable_model_cpu_offload()
text_encoder, unet = pipe.text_encoder, pipe.unet
prompt_ids = torch.randint(0, 100, (1, 7), device="cuda:0")
latents = torch.randn(1, 4, 8, 8, device=pipe._execution_device)
'''
CELL = '''
with torch.no_grad():
    prompt_embeds = text_encoder(prompt_ids)
    noise_pred = unet(latents, prompt_embeds)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
