"""Compel with `pipe.enable_model_cpu_offload()`: token ids are built on `text_encoder.device` (the CPU) while the offload hook runs the encoder on cuda:0.

Source: https://github.com/damian0815/compel/issues/121
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument index in method wrapper_CUDA__index_select)" occurred after
enabling `model_cpu_offload` when calling Compel; everything worked without Compel. In the thread:
"`Compel()` has a `device` option, setting it to "cuda" was the go-to way to support offloading"
(without it Compel puts the token ids on the text encoder's own device, the CPU under offload, while
accelerate's hook moves the encoder to the GPU for the forward).
Stand-ins: accelerate-like offload hook (move to cuda:0 when called; no move back), a CLIP-like text
encoder with a `device` property, a tokenizer, and Compel/EmbeddingsProvider reduced to the device
choice. "cuda" is written cuda:0 (the simulation needs an index).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import functools
from typing import Optional, Union
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

class CLIPTokenizer:
    model_max_length = 8
    def __call__(self, text):
        ids = [hash(w) % 100 for w in text.split()][: self.model_max_length]
        return ids + [0] * (self.model_max_length - len(ids))

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding = nn.Embedding(100, 32)
        self.final_layer_norm = nn.LayerNorm(32)
    @property
    def device(self):
        return next(self.parameters()).device
    def forward(self, input_ids):
        return (self.final_layer_norm(self.token_embedding(input_ids)),)

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states):
        return self.conv(latents) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]

class StableDiffusionPipeline:
    def __init__(self):
        self.tokenizer, self.text_encoder, self.unet = CLIPTokenizer(), CLIPTextModel(), UNet2DConditionModel()
    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls()
    def enable_model_cpu_offload(self, device="cuda:0"):
        self._execution_device = torch.device(device)
        for model in (self.text_encoder, self.unet):
            add_hook_to_module(model, CpuOffload(self._execution_device))

class EmbeddingsProvider:                           # compel.embeddings_provider (stand-in)
    def __init__(self, tokenizer, text_encoder, device: Optional[Union[str, torch.device]] = None):
        self.tokenizer, self.text_encoder = tokenizer, text_encoder
        self._device = device
    @property
    def device(self):
        return self._device if self._device is not None else self.text_encoder.device
    def get_embeddings_for_weighted_prompt_fragments(self, text):
        token_ids = torch.tensor([self.tokenizer(text)], dtype=torch.long, device=self.device)
        return self.text_encoder(token_ids)[0]

class Compel:
    def __init__(self, tokenizer, text_encoder, device: Optional[str] = None):
        self.conditioning_provider = EmbeddingsProvider(tokenizer, text_encoder, device=device)
    @torch.no_grad()
    def build_conditioning_tensor(self, text):
        return self.conditioning_provider.get_embeddings_for_weighted_prompt_fragments(text)
    def __call__(self, text):
        return self.build_conditioning_tensor(text)

pipe = StableDiffusionPipeline.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
pipe.enable_model_cpu_offload()
compel = Compel(tokenizer=pipe.tokenizer, text_encoder=pipe.text_encoder)
'''
CELL = '''
conditioning = compel("a cat playing with a ball++ in the forest")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["compel"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("compel = Compel(tokenizer=pipe.tokenizer, text_encoder=pipe.text_encoder)",
                  'compel = Compel(tokenizer=pipe.tokenizer, text_encoder=pipe.text_encoder, device="cuda:0")')
CLEAN = False
