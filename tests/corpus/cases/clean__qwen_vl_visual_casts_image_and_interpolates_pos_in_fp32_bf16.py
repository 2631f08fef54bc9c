"""Qwen-VL-Chat's visual encoder in bfloat16: float32 images and position tables are cast at use.

Source: https://huggingface.co/Qwen/Qwen-VL-Chat/blob/main/visual.py
Qwen-VL's `VisionTransformer.forward` casts the incoming images with
`x.to(dtype=self.transformer.get_cast_dtype(), device=self.transformer.get_cast_device())`, and
`get_abs_pos` resizes the learned position table through float32 (`abs_pos.float()` ->
bicubic `F.interpolate` -> `.to(dtype=dtype)`) because bicubic interpolation is run in float32;
the Resampler adds its position embeddings the same way. A bf16 model fed the float32 output of
its image transform (at a resolution other than the table's) runs. Stand-in: visual.py at toy size
(one transformer block), on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
from torch.nn import functional as F

def get_abs_pos(abs_pos, tgt_size):
    # abs_pos: L, C ; tgt_size: M ; return: M, C
    src_size = int(math.sqrt(abs_pos.size(0)))
    tgt_size = int(math.sqrt(tgt_size))
    dtype = abs_pos.dtype
    if src_size != tgt_size:
        return F.interpolate(
            abs_pos.float().reshape(1, src_size, src_size, -1).permute(0, 3, 1, 2),
            size=(tgt_size, tgt_size),
            mode="bicubic",
            align_corners=False,
        ).permute(0, 2, 3, 1).flatten(0, 2).to(dtype=dtype)
    else:
        return abs_pos

class Resampler(nn.Module):
    def __init__(self, grid_size=2, embed_dim=32, num_heads=4, kv_dim=24):
        super().__init__()
        self.num_queries = grid_size ** 2
        self.pos_embed = nn.Parameter(torch.randn(self.num_queries, embed_dim)).requires_grad_(False)
        self.query = nn.Parameter(torch.zeros(self.num_queries, embed_dim))
        self.kv_proj = nn.Linear(kv_dim, embed_dim, bias=False)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads)
        self.ln_q = nn.LayerNorm(embed_dim, eps=1e-6)
        self.ln_kv = nn.LayerNorm(embed_dim, eps=1e-6)

    def forward(self, x, attn_mask=None):
        pos_embed = get_abs_pos(self.pos_embed, x.size(1))
        x = self.kv_proj(x)
        x = self.ln_kv(x).permute(1, 0, 2)
        N = x.shape[1]
        q = self.ln_q(self.query)
        out = self.attn(q.unsqueeze(1).repeat(1, N, 1) + self.pos_embed.unsqueeze(1),
                        x + pos_embed.unsqueeze(1), x, attn_mask=attn_mask)[0]
        return out.permute(1, 0, 2)

class TransformerBlock(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.ln = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, width * 2), nn.GELU(), nn.Linear(width * 2, width))

    def get_cast_dtype(self):
        return self.mlp[0].weight.dtype

    def get_cast_device(self):
        return self.mlp[0].weight.device

    def forward(self, x):
        return x + self.mlp(self.ln(x))

class VisionTransformer(nn.Module):
    def __init__(self, image_size=32, patch_size=8, width=24, output_dim=32):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        self.positional_embedding = nn.Parameter(0.02 * torch.randn((image_size // patch_size) ** 2, width))
        self.ln_pre = nn.LayerNorm(width)
        self.transformer = TransformerBlock(width)
        self.attn_pool = Resampler(embed_dim=output_dim, kv_dim=width)
        self.ln_post = nn.LayerNorm(output_dim)
        self.proj = nn.Parameter((output_dim ** -0.5) * torch.randn(output_dim, output_dim))

    def forward(self, x):
        x = x.to(dtype=self.transformer.get_cast_dtype(), device=self.transformer.get_cast_device())
        x = self.conv1(x)
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)
        x = x + get_abs_pos(self.positional_embedding, x.size(1))
        x = self.ln_pre(x)
        x = self.transformer(x)
        x = self.attn_pool(x)
        x = self.ln_post(x)
        return x @ self.proj

# AutoModelForCausalLM.from_pretrained("Qwen/Qwen-VL-Chat", bf16=True): the visual part, in bfloat16
visual = VisionTransformer().to(torch.bfloat16).eval()
# the image transform's output at the chat resolution (here 48px for a 32px position table), float32
images = torch.randn(2, 3, 48, 48)
'''
CELL = '''
with torch.no_grad():
    image_features = visual(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
