"""APISR DAT generator in fp16: the shifted-window attention mask built for a new image size stays float32.

Source: https://github.com/Kiteretsu77/APISR/issues/29
Running APISR's `test_code/inference.py --model DAT --float16_inference true` crashed inside
`Spatial_Attention.forward` at `x = (attn @ v)` with "expected scalar type Half but found Float".
The reporter traced it (and fixed it in PR 28) to `Adaptive_Spatial_Attention.forward`: when the
padded input size differs from the training resolution it calls `self.calculate_mask(_H, _W)`, which
builds the mask with `torch.zeros(...)` in float32, and passes `mask_tmp[i].to(x.device)`; adding the
float32 mask promotes `attn` to float32 while `v` is half. Fix: cast the mask to `x.dtype` too.
Stand-ins: APISR's DAT `Spatial_Attention` / `Adaptive_Spatial_Attention` (shift-window path only, no
position bias or conv branch) inside a one-block DAT; CPU half precision (the CPU error text reads
"expected m1 and m2 to have the same dtype, but got: float != c10::Half").
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def img2windows(img, H_sp, W_sp):
    B, C, H, W = img.shape
    img_reshape = img.view(B, C, H // H_sp, H_sp, W // W_sp, W_sp)
    return img_reshape.permute(0, 2, 4, 3, 5, 1).contiguous().reshape(-1, H_sp * W_sp, C)

def windows2img(img_splits_hw, H_sp, W_sp, H, W):
    B = int(img_splits_hw.shape[0] / (H * W / H_sp / W_sp))
    img = img_splits_hw.view(B, H // H_sp, W // W_sp, H_sp, W_sp, -1)
    return img.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)

class Spatial_Attention(nn.Module):
    def __init__(self, dim, idx, split_size=[8, 8], num_heads=6):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        if idx == 0:
            self.H_sp, self.W_sp = split_size[0], split_size[1]
        else:
            self.W_sp, self.H_sp = split_size[0], split_size[1]

    def im2win(self, x, H, W):
        B, N, C = x.shape
        x = x.transpose(-2, -1).contiguous().view(B, C, H, W)
        x = img2windows(x, self.H_sp, self.W_sp)
        return x.reshape(-1, self.H_sp * self.W_sp, self.num_heads, C // self.num_heads).permute(0, 2, 1, 3).contiguous()

    def forward(self, qkv, H, W, mask=None):
        q, k, v = qkv[0], qkv[1], qkv[2]
        B, L, C = q.shape
        q, k, v = self.im2win(q, H, W), self.im2win(k, H, W), self.im2win(v, H, W)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        N = attn.shape[3]
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = nn.functional.softmax(attn, dim=-1, dtype=attn.dtype)
        x = (attn @ v)
        x = x.transpose(1, 2).reshape(-1, self.H_sp * self.W_sp, C)
        return windows2img(x, self.H_sp, self.W_sp, H, W)

class Adaptive_Spatial_Attention(nn.Module):
    def __init__(self, dim, num_heads, reso=64, split_size=[8, 8], shift_size=[1, 2], rg_idx=0, b_idx=2):
        super().__init__()
        self.split_size, self.shift_size = split_size, shift_size
        self.rg_idx, self.b_idx = rg_idx, b_idx
        self.patches_resolution = reso
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)
        self.attns = nn.ModuleList([Spatial_Attention(dim // 2, idx=i, split_size=split_size, num_heads=num_heads // 2)
                                    for i in range(2)])
        attn_mask = self.calculate_mask(self.patches_resolution, self.patches_resolution)
        self.register_buffer("attn_mask_0", attn_mask[0])
        self.register_buffer("attn_mask_1", attn_mask[1])

    def calculate_mask(self, H, W):
        masks = []
        for a, b in ((0, 1), (1, 0)):
            img_mask = torch.zeros((1, H, W, 1))
            hs = (slice(0, -self.split_size[a]), slice(-self.split_size[a], -self.shift_size[a]), slice(-self.shift_size[a], None))
            ws = (slice(0, -self.split_size[b]), slice(-self.split_size[b], -self.shift_size[b]), slice(-self.shift_size[b], None))
            cnt = 0
            for h in hs:
                for w in ws:
                    img_mask[:, h, w, :] = cnt
                    cnt += 1
            img_mask = img_mask.view(1, H // self.split_size[a], self.split_size[a], W // self.split_size[b], self.split_size[b], 1)
            img_mask = img_mask.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, self.split_size[a] * self.split_size[b])
            attn_mask = img_mask.unsqueeze(1) - img_mask.unsqueeze(2)
            masks.append(attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0)))
        return masks[0], masks[1]

    def forward(self, x, H, W):
        B, L, C = x.shape
        qkv = self.qkv(x).reshape(B, -1, 3, C).permute(2, 0, 1, 3)
        max_split_size = max(self.split_size[0], self.split_size[1])
        pad_r = (max_split_size - W % max_split_size) % max_split_size
        pad_b = (max_split_size - H % max_split_size) % max_split_size
        qkv = qkv.reshape(3 * B, H, W, C).permute(0, 3, 1, 2)
        qkv = F.pad(qkv, (0, pad_r, 0, pad_b)).reshape(3, B, C, -1).transpose(-2, -1)
        _H, _W = pad_b + H, pad_r + W
        _L = _H * _W
        qkv = qkv.reshape(3, B, _H, _W, C)
        qkv_0 = torch.roll(qkv[:, :, :, :, :C // 2], shifts=(-self.shift_size[0], -self.shift_size[1]), dims=(2, 3)).reshape(3, B, _L, C // 2)
        qkv_1 = torch.roll(qkv[:, :, :, :, C // 2:], shifts=(-self.shift_size[1], -self.shift_size[0]), dims=(2, 3)).reshape(3, B, _L, C // 2)
        if self.patches_resolution != _H or self.patches_resolution != _W:
            mask_tmp = self.calculate_mask(_H, _W)
            x1_shift = self.attns[0](qkv_0, _H, _W, mask=mask_tmp[0].to(x.device))
            x2_shift = self.attns[1](qkv_1, _H, _W, mask=mask_tmp[1].to(x.device))
        else:
            x1_shift = self.attns[0](qkv_0, _H, _W, mask=self.attn_mask_0)
            x2_shift = self.attns[1](qkv_1, _H, _W, mask=self.attn_mask_1)
        x1 = torch.roll(x1_shift, shifts=(self.shift_size[0], self.shift_size[1]), dims=(1, 2))[:, :H, :W, :].reshape(B, L, C // 2)
        x2 = torch.roll(x2_shift, shifts=(self.shift_size[1], self.shift_size[0]), dims=(1, 2))[:, :H, :W, :].reshape(B, L, C // 2)
        return self.proj(torch.cat([x1, x2], dim=2))

class DAT(nn.Module):
    def __init__(self, in_chans=3, embed_dim=16, num_heads=4, img_size=64, split_size=[8, 8], upscale=4):
        super().__init__()
        self.conv_first = nn.Conv2d(in_chans, embed_dim, 3, 1, 1)
        self.norm = nn.LayerNorm(embed_dim)
        self.attn = Adaptive_Spatial_Attention(embed_dim, num_heads, reso=img_size, split_size=split_size)
        self.conv_last = nn.Sequential(nn.Conv2d(embed_dim, in_chans * upscale ** 2, 3, 1, 1), nn.PixelShuffle(upscale))

    def forward(self, x):
        B, _, H, W = x.shape
        feat = self.conv_first(x)
        tokens = self.norm(feat.flatten(2).transpose(1, 2))
        tokens = tokens + self.attn(tokens, H, W)
        feat = tokens.transpose(1, 2).reshape(B, -1, H, W)
        return self.conv_last(feat)

weight_dtype = torch.float16                    # --float16_inference true
generator = DAT(img_size=64).eval()
generator = generator.to(dtype=weight_dtype)
img_lr = torch.rand(1, 3, 40, 48).to(dtype=weight_dtype)   # a frame below the 64x64 training size
'''
CELL = '''
with torch.no_grad():
    super_resolved_img = generator(img_lr)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "expected scalar type Float but found Half",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["generator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            mask_tmp = self.calculate_mask(_H, _W)\n",
                  "            mask_tmp = [m.to(x.dtype) for m in self.calculate_mask(_H, _W)]\n")
CLEAN = False
