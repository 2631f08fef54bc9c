"""ComfyUI-HunyuanLoom (HunyuanVideo): the rotary position embeddings are built on the CPU and handed to the cuda transformer.

Source: https://github.com/logtd/ComfyUI-HunyuanLoom/pull/17
Sampling with the HunyuanLoom nodes raised a cuda/cpu device mismatch: the node computed the video
rotary embeddings (`freqs_cos`, `freqs_sin`) with the pipeline's `get_rotary_pos_embed` helper, which
builds them on the CPU, and passed them to the HunyuanVideo transformer without moving them. The PR
"sends rotary embeds to device properly" (`.to(device)` on both).
Stand-in: a small `get_rotary_pos_embed` and an attention block applying them to q/k on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def get_rotary_pos_embed(video_length, height, width, head_dim=16, theta=256):
    n = video_length * height * width
    freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    pos = torch.arange(n).float()
    angles = torch.outer(pos, freqs).repeat_interleave(2, dim=-1)
    return angles.cos(), angles.sin()

class HunyuanVideoBlock(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, freqs_cis):
        cos, sin = freqs_cis
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, -1).unbind(2)
        rot = lambda t: torch.stack([-t[..., 1::2], t[..., ::2]], dim=-1).flatten(-2)
        q = q * cos[:, None] + rot(q) * sin[:, None]
        k = k * cos[:, None] + rot(k) * sin[:, None]
        attn = torch.softmax(torch.einsum("bnhd,bmhd->bhnm", q, k) / 4.0, dim=-1)
        return self.proj(torch.einsum("bhnm,bmhd->bnhd", attn, v).reshape(b, n, d))

def loom_sample(model, latents, device):
    t, h, w = latents.shape[2:]
    freqs_cos, freqs_sin = get_rotary_pos_embed(t, h, w)
    x = latents.flatten(2).transpose(1, 2)
    return model(x, (freqs_cos, freqs_sin))

device = "cuda:0"
transformer = HunyuanVideoBlock().to(device)
latents = torch.randn(1, 32, 2, 3, 3, device=device)
'''
CELL = '''
with torch.no_grad():
    out = loom_sample(transformer, latents, device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["freqs_cos"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    freqs_cos, freqs_sin = get_rotary_pos_embed(t, h, w)\n",
                  "    freqs_cos, freqs_sin = get_rotary_pos_embed(t, h, w)\n    freqs_cos, freqs_sin = freqs_cos.to(device), freqs_sin.to(device)\n")
CLEAN = False
