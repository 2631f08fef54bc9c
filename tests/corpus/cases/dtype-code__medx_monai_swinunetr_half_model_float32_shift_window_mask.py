"""MONAI SwinUNETR in half precision: the shifted-window attention mask is float32, `attn @ v` meets fp16 `v`.

Source: https://github.com/Project-MONAI/MONAI/issues/4914
With `model = SwinUNETR(**params).half()` and `img.half()`, the forward pass crashed with
"expected scalar type Float but found Half". The reporter traced it: `compute_mask` builds the
attention mask as a float32 tensor; adding it to the fp16 attention scores promotes them to float32,
and the following `attn @ v` mixes float32 with the fp16 `v`. The merged fix (PR #4913) casts the
attention weights to `v.dtype` in `WindowAttention.forward`.
Stand-ins: MONAI's swin_unetr `WindowAttention` (relative position bias left out),
`SwinTransformerBlock`, `BasicLayer` with `compute_mask`, and a SwinUNETR with one stage and a 1x1
head, 3-D windows as in the library. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn


def window_partition(x, window_size):
    b, d, h, w, c = x.shape
    x = x.view(b, d // window_size[0], window_size[0], h // window_size[1], window_size[1],
               w // window_size[2], window_size[2], c)
    return x.permute(0, 1, 3, 5, 2, 4, 6, 7).contiguous().view(-1, window_size[0] * window_size[1] * window_size[2], c)


def window_reverse(windows, window_size, dims):
    b, d, h, w = dims
    x = windows.view(b, d // window_size[0], h // window_size[1], w // window_size[2],
                     window_size[0], window_size[1], window_size[2], -1)
    return x.permute(0, 1, 4, 2, 5, 3, 6, 7).contiguous().view(b, d, h, w, -1)


def compute_mask(dims, window_size, shift_size, device):
    cnt = 0
    d, h, w = dims
    img_mask = torch.zeros((1, d, h, w, 1), device=device)
    for ds in slice(-window_size[0]), slice(-window_size[0], -shift_size[0]), slice(-shift_size[0], None):
        for hs in slice(-window_size[1]), slice(-window_size[1], -shift_size[1]), slice(-shift_size[1], None):
            for ws in slice(-window_size[2]), slice(-window_size[2], -shift_size[2]), slice(-shift_size[2], None):
                img_mask[:, ds, hs, ws, :] = cnt
                cnt += 1
    mask_windows = window_partition(img_mask, window_size).squeeze(-1)
    attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
    attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
    return attn_mask


class WindowAttention(nn.Module):
    def __init__(self, dim, num_heads, window_size):
        super().__init__()
        self.dim, self.num_heads, self.window_size = dim, num_heads, window_size
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.attn_drop = nn.Dropout(0.0)
        self.proj = nn.Linear(dim, dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        if mask is not None:
            nw = mask.shape[0]
            attn = attn.view(b // nw, nw, self.num_heads, n, n) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, n, n)
            attn = self.softmax(attn)
        else:
            attn = self.softmax(attn)
        attn = self.attn_drop(attn)
        x = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.proj(x)


class SwinTransformerBlock(nn.Module):
    def __init__(self, dim, num_heads, window_size, shift_size):
        super().__init__()
        self.window_size, self.shift_size = window_size, shift_size
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, num_heads, window_size)

    def forward(self, x, mask_matrix):
        b, d, h, w, c = x.shape
        shortcut = x
        x = self.norm1(x)
        if any(i > 0 for i in self.shift_size):
            shifted_x = torch.roll(x, shifts=[-s for s in self.shift_size], dims=(1, 2, 3))
            attn_mask = mask_matrix
        else:
            shifted_x = x
            attn_mask = None
        x_windows = window_partition(shifted_x, self.window_size)
        attn_windows = self.attn(x_windows, mask=attn_mask)
        shifted_x = window_reverse(attn_windows, self.window_size, [b, d, h, w])
        if any(i > 0 for i in self.shift_size):
            x = torch.roll(shifted_x, shifts=self.shift_size, dims=(1, 2, 3))
        else:
            x = shifted_x
        return shortcut + x


class BasicLayer(nn.Module):
    def __init__(self, dim, depth, num_heads, window_size):
        super().__init__()
        self.window_size = window_size
        self.shift_size = tuple(i // 2 for i in window_size)
        self.no_shift = tuple(0 for i in window_size)
        self.blocks = nn.ModuleList([
            SwinTransformerBlock(dim, num_heads, window_size,
                                 self.no_shift if (i % 2 == 0) else self.shift_size)
            for i in range(depth)])

    def forward(self, x):
        b, c, d, h, w = x.shape
        x = x.permute(0, 2, 3, 4, 1)
        attn_mask = compute_mask([d, h, w], self.window_size, self.shift_size, x.device)
        for blk in self.blocks:
            x = blk(x, attn_mask)
        return x.permute(0, 4, 1, 2, 3)


class SwinTransformer(nn.Module):
    def __init__(self, in_chans, embed_dim, window_size, patch_size):
        super().__init__()
        self.patch_embed = nn.Conv3d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.layers1 = nn.ModuleList([BasicLayer(embed_dim, depth=2, num_heads=3, window_size=window_size)])

    def forward(self, x):
        x = self.patch_embed(x)
        for layer in self.layers1:
            x = layer(x)
        return x


class SwinUNETR(nn.Module):
    def __init__(self, img_size, in_channels, out_channels, feature_size=24):
        super().__init__()
        self.swinViT = SwinTransformer(in_channels, feature_size, window_size=(2, 2, 2), patch_size=(2, 2, 2))
        self.out = nn.Conv3d(feature_size, out_channels, kernel_size=1)

    def forward(self, x_in):
        return self.out(self.swinViT(x_in))


params = dict(img_size=(16, 16, 16), in_channels=1, out_channels=14, feature_size=24)
model = SwinUNETR(**params)
model = model.half()
dataloader = [torch.randn(1, 1, 16, 16, 16) for _ in range(2)]
'''
CELL = '''
for img in dataloader:
    img = img.half()
    logits = model(img)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "expected m1 and m2")
CULPRITS = ["model.swinViT.layers1[0].blocks[1].attn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        attn = self.attn_drop(attn)\n",
                  "        attn = self.attn_drop(attn).to(v.dtype)\n")
CLEAN = False
