"""Wan2.1 `WanModel`: the RoPE table `freqs` is a plain tensor attribute, left on the CPU by `.to()` and moved in `forward`.

Source: https://github.com/Wan-Video/Wan2.1/blob/main/wan/modules/model.py
`WanModel.__init__` stores `self.freqs` (the 3-D rope table) as a plain attribute, not a buffer, so
`model.to("cuda")` leaves it on the CPU; `forward` then does `if self.freqs.device != device:
self.freqs = self.freqs.to(device)` before the blocks use it. Look-alike: a CPU tensor hanging off a
cuda model on purpose, that runs. Stand-in: the patch embedding, freqs handling and one attention
block (real cos/sin tables instead of complex freqs).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def rope_params(max_seq_len, dim, theta=10000):
    freqs = 1.0 / torch.pow(theta, torch.arange(0, dim, 2).float() / dim)
    angles = torch.outer(torch.arange(max_seq_len).float(), freqs)
    return torch.cat([angles.cos(), angles.sin()], dim=-1)

class WanAttentionBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, freqs):
        n = x.shape[1]
        cos, sin = freqs[:n].chunk(2, dim=-1)
        cos, sin = cos.repeat_interleave(2, -1), sin.repeat_interleave(2, -1)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k = q * cos + q.flip(-1) * sin, k * cos + k.flip(-1) * sin
        attn = torch.softmax(q @ k.transpose(1, 2) / x.shape[-1] ** 0.5, dim=-1)
        return x + self.o(attn @ v)

class WanModel(nn.Module):
    def __init__(self, in_dim=16, dim=32, num_layers=2):
        super().__init__()
        self.patch_embedding = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList([WanAttentionBlock(dim) for _ in range(num_layers)])
        self.head = nn.Linear(dim, in_dim)
        self.freqs = rope_params(1024, dim)       # plain attribute: Module.to() does not move it

    def forward(self, x):
        device = self.patch_embedding.weight.device
        if self.freqs.device != device:
            self.freqs = self.freqs.to(device)
        x = self.patch_embedding(x)
        for block in self.blocks:
            x = block(x, self.freqs)
        return self.head(x)

model = WanModel().to("cuda:0")
latent = torch.randn(1, 12, 16).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    noise_pred = model(latent)
print(noise_pred.device, model.freqs.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
