"""Tortoise TTS with `kv_cache` off-GPU: the autoregressive model stays on the CPU and is moved to cuda only around its stage.

Source: https://github.com/neonbjb/tortoise-tts/blob/main/tortoise/api.py
`TextToSpeech` keeps its models on the CPU when `models_dir`/low-VRAM loading is used and wraps each
stage in `with self.temporary_cuda(self.autoregressive) as autoregressive:` (`m.to(self.device)`,
yield, `m.cpu()`); the conditioning latents and text tokens are moved with `.to(self.device)` inside
`tts()`. Look-alike: a CPU model next to cuda inputs on purpose, that runs.
Stand-in: the `temporary_cuda` context manager and a two-stage tts with tiny models.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from contextlib import contextmanager
import torch
from torch import nn

class TextToSpeech:
    def __init__(self, device="cuda:0"):
        self.device = torch.device(device)
        self.autoregressive = nn.Sequential(nn.Embedding(64, 32), nn.Linear(32, 32)).eval()
        self.diffusion = nn.Linear(64, 24).eval()

    @contextmanager
    def temporary_cuda(self, model):
        m = model.to(self.device)
        yield m
        m = model.cpu()

    @torch.no_grad()
    def tts(self, text_tokens, conditioning_latents):
        auto_conditioning = conditioning_latents.to(self.device)
        text_tokens = text_tokens.to(self.device)
        with self.temporary_cuda(self.autoregressive) as autoregressive:
            codes = autoregressive(text_tokens) + auto_conditioning[:, None]
        with self.temporary_cuda(self.diffusion) as diffusion:
            mel = diffusion(torch.cat([codes, codes], dim=-1))
        return mel

tts = TextToSpeech()
text_tokens = torch.randint(0, 64, (1, 9))
conditioning_latents = torch.randn(1, 32)
'''
CELL = '''
gen = tts.tts(text_tokens, conditioning_latents)
print(gen.device, next(tts.autoregressive.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
