"""Wan2GP ACE-Step v1.5 XL Turbo: the tokenizer's FSQ quantizer is fed float32, but its weights were reloaded as bfloat16.

Source: https://github.com/deepbeepmeep/Wan2GP/issues/1962
Generation failed before any diffusion step with "mat1 and mat2 must have the same dtype, but got
Float and BFloat16" in `self.quantizer(hidden_states.float())` -> `ResidualFSQ.project_in`. The
reporter's root cause: `pipeline_ace_step15.py` calls `quantizer.float()` to keep the XL tokenizer
quantizer in float32, but on partial-VRAM profiles mmgp reloads the weight tensors from the bf16
checkpoint, so the quantizer's weights are bfloat16 again while the forward passes float32.
The quantizer must hold the float32 weights the code expects. Stand-ins: a ResidualFSQ with
`project_in`/`project_out`, the XL audio tokenizer, and mmgp's reload reduced to
`load_state_dict(..., assign=True)` from the bf16 checkpoint.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class ResidualFSQ(nn.Module):
    """vector_quantize_pytorch.ResidualFSQ (stand-in)."""
    def __init__(self, dim=32, codebook_dim=6, levels=8):
        super().__init__()
        self.levels = levels
        self.project_in = nn.Linear(dim, codebook_dim)
        self.project_out = nn.Linear(codebook_dim, dim)

    def forward(self, x):
        x = self.project_in(x)
        half = (self.levels - 1) / 2
        indices = torch.round(torch.tanh(x) * half) + half
        quantized = self.project_out(indices / half - 1)
        return quantized, indices.long()

class AceStepAudioTokenizer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.quantizer = ResidualFSQ(dim)

    def forward(self, hidden_states):
        hidden_states = self.proj(hidden_states)
        quantized, indices = self.quantizer(hidden_states.float())
        return quantized.to(hidden_states.dtype), indices

class AceStepXLTurbo(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.encoder = nn.Linear(64, dim)
        self.tokenizer = AceStepAudioTokenizer(dim)
        self.decoder = nn.Linear(dim, 64)

    def forward(self, latents):
        quantized, indices = self.tokenizer(self.encoder(latents))
        return self.decoder(quantized)

def mmgp_reload(model, checkpoint):
    """mmgp partial-VRAM profile (stand-in): weights are re-read from the pinned checkpoint."""
    model.load_state_dict(checkpoint, assign=True)

class AceStep15Pipeline:
    def __init__(self, checkpoint):
        self.model = AceStepXLTurbo().to(torch.bfloat16)
        self.model.load_state_dict(checkpoint)
        self.model.tokenizer.quantizer.float()
        print("[ace_step15] keeping XL tokenizer quantizer in float32 before MMGP.")
        mmgp_reload(self.model, checkpoint)

    @torch.no_grad()
    def generate(self, prompt, frames=25):
        src_latents = torch.randn(1, frames, 64, dtype=torch.bfloat16)
        return self.model(src_latents)

checkpoint = {k: v.to(torch.bfloat16) for k, v in AceStepXLTurbo().state_dict().items()}   # ..._quanto_bf16_int8.safetensors
pipe = AceStep15Pipeline(checkpoint)
'''
CELL = '''
audio_latents = pipe.generate("80s disco, female vocals, contralto")
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["pipe.model.tokenizer.quantizer"]
FIX = "namespace"
REFERENCE_FIX = '''
pipe.model.tokenizer.quantizer.float()
'''
REFERENCE_EDIT = None
CLEAN = False
