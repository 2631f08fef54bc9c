"""torchtitan Flux without FSDP: the T5/CLIP encoders return bfloat16, the diffusion model is float32.

Source: https://github.com/pytorch/torchtitan/issues/1137
"For flux, when FSDP is not enabled, there is a dtype error. This is because the output of the
encoders will be in bfloat16, but the diffusion model itself will be in float32" (with FSDP the
mixed-precision policy casts the model's compute to bf16 and hides it). Stand-in: bf16 text
encoders whose outputs are computed in the data-preprocessing step, and a float32 Flux model whose
`txt_in` projection receives them; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class TextEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return self.proj(self.embed(tokens))

class FluxModel(nn.Module):
    def __init__(self, in_channels=16, hidden=32, context_in_dim=24, vec_in_dim=20):
        super().__init__()
        self.img_in = nn.Linear(in_channels, hidden)
        self.txt_in = nn.Linear(context_in_dim, hidden)
        self.vector_in = nn.Linear(vec_in_dim, hidden)
        self.final_layer = nn.Linear(hidden, in_channels)

    def forward(self, img, txt, y):
        img = self.img_in(img)
        txt = self.txt_in(txt)
        vec = self.vector_in(y)[:, None]
        attn = (img @ txt.transpose(1, 2)).softmax(-1) @ txt
        return self.final_layer(img + attn + vec)

t5_encoder = TextEncoder(100, 24).to(torch.bfloat16)     # encoders loaded in bfloat16
clip_encoder = TextEncoder(100, 20).to(torch.bfloat16)
model = FluxModel()                                       # no FSDP: stays float32

t5_tokens = torch.randint(0, 100, (2, 7))
clip_tokens = torch.randint(0, 100, (2, 1))
with torch.no_grad():
    t5_encodings = t5_encoder(t5_tokens)
    clip_encodings = clip_encoder(clip_tokens)[:, 0]
latents = torch.randn(2, 10, 16)
'''
CELL = '''
pred = model(latents, t5_encodings, clip_encodings)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["t5_encodings", "clip_encodings"]
FIX = "namespace"
REFERENCE_FIX = '''
t5_encodings = t5_encodings.float()
clip_encodings = clip_encodings.float()
'''
REFERENCE_EDIT = None
CLEAN = False
