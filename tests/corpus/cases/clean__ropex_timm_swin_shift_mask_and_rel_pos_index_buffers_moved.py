"""Look-alike: timm's Swin block builds its shifted-window mask and relative position index on the CPU in `__init__`; both are buffers.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/models/swin_transformer.py
(`get_relative_position_index`, `WindowAttention`, `SwinTransformerBlock.get_attn_mask`,
`window_partition` / `window_reverse`).
`SwinTransformerBlock.__init__` calls `get_attn_mask()` with no input, so the SW-MSA mask is made
by `torch.zeros((1, H, W, 1))` on the CPU, and `WindowAttention` computes its
`relative_position_index` with `torch.arange` on the CPU: precomputed position/mask tensors from
the constructor, then the model is moved with `.to(device)` - the usual "mask left on the CPU"
setup. Both are `register_buffer(..., persistent=False)`, so `Module.to()` moves them with the
weights, and the relative bias is gathered from the (moved) table inside forward. Stand-in: a
two-block Swin stage (plain and shifted window) with timm's code and its fused SDPA path; the
meta device plays cuda (the rolls and window copies need real kernels under fake cuda).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size[0], window_size[0], W // window_size[1], window_size[1], C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size[0], window_size[1], C)

def window_reverse(windows, window_size, H, W):
    C = windows.shape[-1]
    x = windows.view(-1, H // window_size[0], W // window_size[1], window_size[0], window_size[1], C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, H, W, C)

def get_relative_position_index(win_h, win_w):
    coords = torch.stack(torch.meshgrid(torch.arange(win_h), torch.arange(win_w), indexing="ij"))
    coords_flatten = torch.flatten(coords, 1)
    relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]
    relative_coords = relative_coords.permute(1, 2, 0).contiguous()
    relative_coords[:, :, 0] += win_h - 1
    relative_coords[:, :, 1] += win_w - 1
    relative_coords[:, :, 0] *= 2 * win_w - 1
    return relative_coords.sum(-1)

class WindowAttention(nn.Module):
    def __init__(self, dim, num_heads, window_size=(4, 4), qkv_bias=True):
        super().__init__()
        self.window_size = window_size
        win_h, win_w = self.window_size
        self.window_area = win_h * win_w
        self.num_heads = num_heads
        self.relative_position_bias_table = nn.Parameter(torch.zeros((2 * win_h - 1) * (2 * win_w - 1), num_heads))
        self.register_buffer("relative_position_index", get_relative_position_index(win_h, win_w), persistent=False)
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def _get_rel_pos_bias(self):
        relative_position_bias = self.relative_position_bias_table[
            self.relative_position_index.view(-1)].view(self.window_area, self.window_area, -1)
        relative_position_bias = relative_position_bias.permute(2, 0, 1).contiguous()
        return relative_position_bias.unsqueeze(0)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn_mask = self._get_rel_pos_bias()
        if mask is not None:
            num_win = mask.shape[0]
            mask = mask.view(1, num_win, 1, N, N).expand(B_ // num_win, -1, self.num_heads, -1, -1)
            attn_mask = attn_mask + mask.reshape(-1, self.num_heads, N, N)
        x = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        x = x.transpose(1, 2).reshape(B_, N, -1)
        return self.proj(x)

class SwinTransformerBlock(nn.Module):
    def __init__(self, dim, input_resolution, num_heads=4, window_size=4, shift_size=0, mlp_ratio=4.):
        super().__init__()
        self.input_resolution = input_resolution
        self.window_size = (window_size, window_size)
        self.shift_size = (shift_size, shift_size)
        self.window_area = window_size * window_size
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, num_heads=num_heads, window_size=self.window_size)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))
        self.register_buffer("attn_mask", self.get_attn_mask(), persistent=False)

    def get_attn_mask(self, x=None):
        if any(self.shift_size):
            H, W = self.input_resolution
            img_mask = torch.zeros((1, H, W, 1))
            cnt = 0
            for h in ((0, -self.window_size[0]), (-self.window_size[0], -self.shift_size[0]), (-self.shift_size[0], None)):
                for w in ((0, -self.window_size[1]), (-self.window_size[1], -self.shift_size[1]), (-self.shift_size[1], None)):
                    img_mask[:, h[0]:h[1], w[0]:w[1], :] = cnt
                    cnt += 1
            mask_windows = window_partition(img_mask, self.window_size)
            mask_windows = mask_windows.view(-1, self.window_area)
            attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        else:
            attn_mask = None
        return attn_mask

    def _attn(self, x):
        B, H, W, C = x.shape
        has_shift = any(self.shift_size)
        if has_shift:
            shifted_x = torch.roll(x, shifts=(-self.shift_size[0], -self.shift_size[1]), dims=(1, 2))
        else:
            shifted_x = x
        x_windows = window_partition(shifted_x, self.window_size).view(-1, self.window_area, C)
        attn_windows = self.attn(x_windows, mask=self.attn_mask)
        attn_windows = attn_windows.view(-1, self.window_size[0], self.window_size[1], C)
        shifted_x = window_reverse(attn_windows, self.window_size, H, W)
        if has_shift:
            x = torch.roll(shifted_x, shifts=self.shift_size, dims=(1, 2))
        else:
            x = shifted_x
        return x

    def forward(self, x):
        B, H, W, C = x.shape
        x = x + self._attn(self.norm1(x))
        x = x.reshape(B, -1, C)
        x = x + self.mlp(self.norm2(x))
        return x.reshape(B, H, W, C)

class SwinStage(nn.Module):
    def __init__(self, dim=32, input_resolution=(8, 8), num_heads=4, window_size=4):
        super().__init__()
        self.blocks = nn.Sequential(
            SwinTransformerBlock(dim, input_resolution, num_heads, window_size, shift_size=0),
            SwinTransformerBlock(dim, input_resolution, num_heads, window_size, shift_size=window_size // 2))

    def forward(self, x):
        return self.blocks(x)

device = torch.device("meta")   # "cuda"
stage = SwinStage().to(device)
stage.eval()
feats = torch.randn(2, 8, 8, 32).to(device)      # NHWC, as timm's Swin stages take them
'''
CELL = '''
with torch.no_grad():
    out = stage(feats)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
