"""spandrel's HAT in bfloat16: the shifted-window attention mask is always built in float32.

Source: https://github.com/chaiNNer-org/spandrel/pull/319
"Support `bfloat16` in DAT and HAT": "As it stands, both DAT and HAT do not support `bfloat16`
because the attention masks always have `float32` as their `dtype`. This pull request ensures that
the masks have the appropriate `dtype`." In HAT, `forward_features` computes the SW-MSA mask with
`self.calculate_mask(x_size).to(x.device)` (built from `torch.zeros`, float32); adding it to the
bf16 attention scores promotes them to float32 and `attn @ v` then meets a bf16 `v`. The fix gives
the mask the features' dtype. Stand-in: spandrel's HAT `WindowAttention`, `HAB`,
`window_partition`/`window_reverse`, `calculate_rpi_sa`, `calculate_mask` and `forward_features`,
trimmed to a conv head, one group of two HABs (plain and shifted window) and a conv tail; the
channel-attention and overlapping cross-attention branches are left out; CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

def window_partition(x, window_size):
    b, h, w, c = x.shape
    x = x.view(b, h // window_size, window_size, w // window_size, window_size, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, c)

def window_reverse(windows, window_size, h, w):
    b = int(windows.shape[0] / (h * w / window_size / window_size))
    x = windows.view(b, h // window_size, w // window_size, window_size, window_size, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, -1)

class WindowAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads, qkv_bias=True):
        super().__init__()
        self.dim, self.window_size, self.num_heads = dim, window_size, num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads))
        nn.init.trunc_normal_(self.relative_position_bias_table, std=0.02)
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, rpi, mask=None):
        b_, n, c = x.shape
        qkv = self.qkv(x).reshape(b_, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        relative_position_bias = self.relative_position_bias_table[rpi.view(-1)].view(
            self.window_size[0] * self.window_size[1], self.window_size[0] * self.window_size[1], -1)
        attn = attn + relative_position_bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            nw = mask.shape[0]
            attn = attn.view(b_ // nw, nw, self.num_heads, n, n) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, n, n)
        attn = self.softmax(attn)
        x = (attn @ v).transpose(1, 2).reshape(b_, n, c)
        return self.proj(x)

class HAB(nn.Module):
    def __init__(self, dim, num_heads, window_size=8, shift_size=0, mlp_ratio=2.0):
        super().__init__()
        self.window_size, self.shift_size = window_size, shift_size
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, (window_size, window_size), num_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x, x_size, rpi_sa, attn_mask):
        h, w = x_size
        b, _, c = x.shape
        shortcut = x
        x = self.norm1(x).view(b, h, w, c)
        if self.shift_size > 0:
            shifted_x = torch.roll(x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))
        else:
            shifted_x = x
            attn_mask = None
        x_windows = window_partition(shifted_x, self.window_size).view(-1, self.window_size * self.window_size, c)
        attn_windows = self.attn(x_windows, rpi=rpi_sa, mask=attn_mask)
        shifted_x = window_reverse(attn_windows.view(-1, self.window_size, self.window_size, c), self.window_size, h, w)
        if self.shift_size > 0:
            attn_x = torch.roll(shifted_x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))
        else:
            attn_x = shifted_x
        x = shortcut + attn_x.view(b, h * w, c)
        return x + self.mlp(self.norm2(x))

class HAT(nn.Module):
    def __init__(self, num_in_ch=3, embed_dim=32, num_heads=4, window_size=8, img_range=1.0):
        super().__init__()
        self.window_size = window_size
        self.shift_size = window_size // 2
        self.img_range = img_range
        self.register_buffer("relative_position_index_SA", self.calculate_rpi_sa())
        self.conv_first = nn.Conv2d(num_in_ch, embed_dim, 3, 1, 1)
        self.layers = nn.ModuleList([HAB(embed_dim, num_heads, window_size, 0),
                                     HAB(embed_dim, num_heads, window_size, self.shift_size)])
        self.norm = nn.LayerNorm(embed_dim)
        self.conv_after_body = nn.Conv2d(embed_dim, embed_dim, 3, 1, 1)
        self.conv_last = nn.Conv2d(embed_dim, num_in_ch, 3, 1, 1)

    def calculate_rpi_sa(self):
        coords_h = torch.arange(self.window_size)
        coords_w = torch.arange(self.window_size)
        coords = torch.stack(torch.meshgrid([coords_h, coords_w], indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        relative_coords = (coords_flatten[:, :, None] - coords_flatten[:, None, :]).permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += self.window_size - 1
        relative_coords[:, :, 1] += self.window_size - 1
        relative_coords[:, :, 0] *= 2 * self.window_size - 1
        return relative_coords.sum(-1)

    def calculate_mask(self, x_size):
        h, w = x_size
        img_mask = torch.zeros((1, h, w, 1))  # 1 h w 1
        h_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
        w_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
        cnt = 0
        for h in h_slices:
            for w in w_slices:
                img_mask[:, h, w, :] = cnt
                cnt += 1
        mask_windows = window_partition(img_mask, self.window_size).view(-1, self.window_size * self.window_size)
        attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
        return attn_mask.masked_fill(attn_mask != 0, -100.0).masked_fill(attn_mask == 0, 0.0)

    def forward_features(self, x):
        x_size = (x.shape[2], x.shape[3])
        attn_mask = self.calculate_mask(x_size).to(x.device)
        b, c, h, w = x.shape
        x = x.flatten(2).transpose(1, 2)                     # patch_embed
        for layer in self.layers:
            x = layer(x, x_size, self.relative_position_index_SA, attn_mask)
        x = self.norm(x)
        return x.transpose(1, 2).view(b, c, h, w)             # patch_unembed

    def forward(self, x):
        x = x * self.img_range
        x = self.conv_first(x)
        x = self.conv_after_body(self.forward_features(x)) + x
        return self.conv_last(x) / self.img_range

torch.manual_seed(0)
model = HAT().eval().to(torch.bfloat16)
img = torch.rand(1, 3, 16, 16).to(torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    sr = model(img)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("attn_mask = self.calculate_mask(x_size).to(x.device)",
                  "attn_mask = self.calculate_mask(x_size).to(x.device, dtype=x.dtype)")
CLEAN = False
