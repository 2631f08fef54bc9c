"""MobileSAM's TinyViT attention caches its bias table `ab` as a plain attribute in eval mode.

Source: https://github.com/ChaoningZhang/MobileSAM/pull/47
"Fix an issue with working with gpu": `Attention.train(mode=False)` sets
`self.ab = self.attention_biases[:, self.attention_bias_idxs]` - a plain tensor attribute made on
the CPU when the model is put in eval mode before it is moved, so `.to(device)` leaves it behind
and `(q @ k.transpose(-2, -1)) * self.scale + self.ab` fails on cuda:0. The PR registers `ab` as a
non-persistent buffer. Stand-in: one TinyViT attention block inside an image encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import itertools
import torch
import torch.nn as nn

class Attention(torch.nn.Module):
    def __init__(self, dim, key_dim, num_heads=2, attn_ratio=1, resolution=(4, 4)):
        super().__init__()
        self.num_heads = num_heads
        self.scale = key_dim ** -0.5
        self.key_dim = key_dim
        self.nh_kd = nh_kd = key_dim * num_heads
        self.d = int(attn_ratio * key_dim)
        self.dh = int(attn_ratio * key_dim) * num_heads
        h = self.dh + nh_kd * 2
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, h)
        self.proj = nn.Linear(self.dh, dim)
        points = list(itertools.product(range(resolution[0]), range(resolution[1])))
        N = len(points)
        attention_offsets, idxs = {}, []
        for p1 in points:
            for p2 in points:
                offset = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                if offset not in attention_offsets:
                    attention_offsets[offset] = len(attention_offsets)
                idxs.append(attention_offsets[offset])
        self.attention_biases = torch.nn.Parameter(torch.zeros(num_heads, len(attention_offsets)))
        self.register_buffer('attention_bias_idxs', torch.LongTensor(idxs).view(N, N), persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, 'ab'):
            del self.ab
        else:
            self.ab = self.attention_biases[:, self.attention_bias_idxs]

    def forward(self, x):
        B, N, _ = x.shape
        x = self.norm(x)
        qkv = self.qkv(x)
        q, k, v = qkv.view(B, N, self.num_heads, -1).split([self.key_dim, self.key_dim, self.d], dim=3)
        q, k, v = q.permute(0, 2, 1, 3), k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        attn = ((q @ k.transpose(-2, -1)) * self.scale
                + (self.attention_biases[:, self.attention_bias_idxs] if self.training else self.ab))
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dh)
        return self.proj(x)

class ImageEncoderStandIn(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.patch_embed = nn.Linear(3, dim)
        self.attn = Attention(dim, key_dim=8)

    def forward(self, x):
        return self.attn(self.patch_embed(x))

device = "cuda:0"
mobile_sam = ImageEncoderStandIn()
mobile_sam.eval()
mobile_sam.to(device=device)
image_tokens = torch.randn(1, 16, 3).to(device)
'''
CELL = '''
features = mobile_sam(image_tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mobile_sam.attn.ab"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.ab = self.attention_biases[:, self.attention_bias_idxs]",
                  "self.register_buffer('ab', self.attention_biases[:, self.attention_bias_idxs], persistent=False)")
CLEAN = False
