"""Weights loaded straight onto the GPU; a non-persistent buffer stays behind on the CPU.

Source: https://github.com/vllm-project/vllm/pull/43844
MiniCPM-o's `Resampler2_5` registers `pos_embed` as a non-persistent buffer; weight loading places
only what is in the checkpoint, so the weights land on cuda while `pos_embed` stays on the CPU and
`x + pos_embed` raises. Stand-in: `load_state_dict(..., assign=True)` of a GPU state dict, which
places parameters and persistent buffers only.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def sincos_2d(size, dim):
    pos = torch.arange(size * size).float().unsqueeze(1)
    freq = torch.exp(torch.arange(0, dim, 2).float() * (-9.21 / dim))
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=1).reshape(size, size, dim)

class Resampler(nn.Module):
    def __init__(self, embed_dim=32, max_size=8):
        super().__init__()
        self.kv_proj = nn.Linear(48, embed_dim)
        self.ln_kv = nn.LayerNorm(embed_dim)
        self.register_buffer("pos_embed", sincos_2d(max_size, embed_dim), persistent=False)

    def forward(self, x, tgt_h, tgt_w):
        x = self.ln_kv(self.kv_proj(x))
        pos_embed = self.pos_embed.narrow(0, 0, tgt_h).narrow(1, 0, tgt_w)
        pos_embed = pos_embed.reshape(tgt_h * tgt_w, -1)
        return x + pos_embed

resampler = Resampler()
checkpoint = {k: v.to("cuda:0") for k, v in resampler.state_dict().items()}
resampler.load_state_dict(checkpoint, assign=True)
x = torch.randn(1, 16, 48, device="cuda:0")
'''
CELL = '''
out = resampler(x, 4, 4)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["resampler.pos_embed"]
FIX = "namespace"
REFERENCE_FIX = '''
resampler.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
