"""ComfyUI BiRefNet background removal in fp16: the shifted-window attention mask is built in fp32.

Source: https://github.com/Comfy-Org/ComfyUI/pull/15582
`ImageRemBG` with a BiRefNet model crashed on every run with "expected scalar type Float but found Half"
at `x = (attn @ v)` in the Swin window attention (issue #15571; fine with `--fp32-text-enc`). The PR's
diagnosis: `BasicLayer.forward` builds `img_mask = torch.zeros((1, Hp, Wp, 1), device=x.device)` with no
dtype, so the derived `attn_mask` is fp32; `attn + mask` promotes the fp16 attention to fp32 and the
following matmul with the fp16 `v` fails. Fix: create `img_mask` in `x.dtype`. Stand-in: a one-layer,
two-block (plain + shifted) Swin backbone with the upstream mask code, run in fp16 on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)

def window_reverse(windows, window_size, H, W):
    B = int(windows.shape[0] / (H * W / window_size / window_size))
    x = windows.view(B, H // window_size, W // window_size, window_size, window_size, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)

class WindowAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads):
        super().__init__()
        self.window_size = window_size
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads))
        coords = torch.stack(torch.meshgrid([torch.arange(window_size[0]), torch.arange(window_size[1])], indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        relative_coords = (coords_flatten[:, :, None] - coords_flatten[:, None, :]).permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += window_size[0] - 1
        relative_coords[:, :, 1] += window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * window_size[1] - 1
        self.register_buffer("relative_position_index", relative_coords.sum(-1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        relative_position_bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn = attn + relative_position_bias.permute(2, 0, 1).contiguous().to(attn.dtype).unsqueeze(0)   # cast_to_input (#14217)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = self.softmax(attn)
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj(x)

class SwinTransformerBlock(nn.Module):
    def __init__(self, dim, num_heads, window_size=4, shift_size=0):
        super().__init__()
        self.window_size = window_size
        self.shift_size = shift_size
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, (window_size, window_size), num_heads)
        self.H = self.W = None

    def forward(self, x, mask_matrix):
        B, L, C = x.shape
        H, W = self.H, self.W
        shortcut = x
        x = self.norm1(x).view(B, H, W, C)
        if self.shift_size > 0:
            x = torch.roll(x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))
            attn_mask = mask_matrix
        else:
            attn_mask = None
        x_windows = window_partition(x, self.window_size).view(-1, self.window_size * self.window_size, C)
        attn_windows = self.attn(x_windows, mask=attn_mask).view(-1, self.window_size, self.window_size, C)
        x = window_reverse(attn_windows, self.window_size, H, W)
        if self.shift_size > 0:
            x = torch.roll(x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))
        return shortcut + x.view(B, H * W, C)

class BasicLayer(nn.Module):
    def __init__(self, dim, depth, num_heads, window_size=4):
        super().__init__()
        self.window_size = window_size
        self.shift_size = window_size // 2
        self.blocks = nn.ModuleList([
            SwinTransformerBlock(dim, num_heads, window_size, shift_size=0 if i % 2 == 0 else window_size // 2)
            for i in range(depth)])

    def forward(self, x, H, W):
        Hp = int(np.ceil(H / self.window_size)) * self.window_size
        Wp = int(np.ceil(W / self.window_size)) * self.window_size
        img_mask = torch.zeros((1, Hp, Wp, 1), device=x.device)
        h_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
        w_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
        cnt = 0
        for h in h_slices:
            for w in w_slices:
                img_mask[:, h, w, :] = cnt
                cnt += 1
        mask_windows = window_partition(img_mask, self.window_size).view(-1, self.window_size * self.window_size)
        attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
        attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        for blk in self.blocks:
            blk.H, blk.W = H, W
            x = blk(x, attn_mask)
        return x

class SwinTransformer(nn.Module):
    def __init__(self, patch_size=4, embed_dim=16):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, stride=patch_size)
        self.layers = nn.ModuleList([BasicLayer(embed_dim, depth=2, num_heads=2)])

    def forward(self, x):
        x = self.patch_embed(x)
        B, C, Wh, Ww = x.shape
        x = x.flatten(2).transpose(1, 2)
        for layer in self.layers:
            x = layer(x, Wh, Ww)
        return x.transpose(1, 2).view(B, C, Wh, Ww)

class BiRefNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bb = SwinTransformer()
        self.head = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

birefnet = BiRefNet().eval().to(torch.float16)        # ComfyUI's default fp16 compute dtype on CUDA
image = torch.rand(1, 32, 32, 3)
inference_image = image.movedim(-1, 1).to(torch.float16)
'''
CELL = '''
with torch.no_grad():
    mask = birefnet(inference_image)[-1].sigmoid()
'''
EXPECT_ERROR = ("expected scalar type Float but found Half", "same dtype")
CULPRITS = ["birefnet.bb.layers[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("img_mask = torch.zeros((1, Hp, Wp, 1), device=x.device)",
                  "img_mask = torch.zeros((1, Hp, Wp, 1), device=x.device, dtype=x.dtype)")
CLEAN = False
