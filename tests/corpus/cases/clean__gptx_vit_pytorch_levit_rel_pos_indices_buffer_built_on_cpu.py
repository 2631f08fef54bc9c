"""vit-pytorch LeViT `Attention`: the relative-position index table is computed on the CPU in `__init__` and indexes an `nn.Embedding` on the GPU, as a registered buffer.

Source: https://github.com/lucidrains/vit-pytorch/blob/main/vit_pytorch/levit.py
`pos_indices` is built from `torch.arange`/`torch.meshgrid` with no device (query/key grid offsets,
`(x_rel * fmap_size) + y_rel`) and then `self.register_buffer('pos_indices', pos_indices)`, so
`model.to(device)` moves it; `apply_pos_bias` does `self.pos_bias(self.pos_indices)` (an embedding
lookup, both on the GPU) and adds the bias to the attention logits. Index tensors made at
construction without a device look like a device-index bug, but the buffer follows the module.
Look-alike: runs. Stand-in: the file's `Attention` (with and without `downsample`); einops
`rearrange`/`einsum` written as reshapes and `torch.einsum`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def default(val, d):
    return val if val is not None else d

class Attention(nn.Module):
    def __init__(self, dim, fmap_size, heads = 8, dim_key = 32, dim_value = 64, dropout = 0., dim_out = None, downsample = False):
        super().__init__()
        inner_dim_key = dim_key *  heads
        inner_dim_value = dim_value *  heads
        dim_out = default(dim_out, dim)

        self.heads = heads
        self.scale = dim_key ** -0.5

        self.to_q = nn.Sequential(nn.Conv2d(dim, inner_dim_key, 1, stride = (2 if downsample else 1), bias = False), nn.BatchNorm2d(inner_dim_key))
        self.to_k = nn.Sequential(nn.Conv2d(dim, inner_dim_key, 1, bias = False), nn.BatchNorm2d(inner_dim_key))
        self.to_v = nn.Sequential(nn.Conv2d(dim, inner_dim_value, 1, bias = False), nn.BatchNorm2d(inner_dim_value))

        self.attend = nn.Softmax(dim = -1)
        self.dropout = nn.Dropout(dropout)

        out_batch_norm = nn.BatchNorm2d(dim_out)
        nn.init.zeros_(out_batch_norm.weight)

        self.to_out = nn.Sequential(
            nn.GELU(),
            nn.Conv2d(inner_dim_value, dim_out, 1),
            out_batch_norm,
            nn.Dropout(dropout)
        )

        self.pos_bias = nn.Embedding(fmap_size * fmap_size, heads)

        q_range = torch.arange(0, fmap_size, step = (2 if downsample else 1))
        k_range = torch.arange(fmap_size)

        q_pos = torch.stack(torch.meshgrid(q_range, q_range, indexing = 'ij'), dim = -1)
        k_pos = torch.stack(torch.meshgrid(k_range, k_range, indexing = 'ij'), dim = -1)

        q_pos, k_pos = map(lambda t: t.reshape(-1, t.shape[-1]), (q_pos, k_pos))
        rel_pos = (q_pos[:, None, ...] - k_pos[None, :, ...]).abs()

        x_rel, y_rel = rel_pos.unbind(dim = -1)
        pos_indices = (x_rel * fmap_size) + y_rel

        self.register_buffer('pos_indices', pos_indices)

    def apply_pos_bias(self, fmap):
        bias = self.pos_bias(self.pos_indices)
        bias = bias.permute(2, 0, 1)[None]
        return fmap + (bias / self.scale)

    def forward(self, x):
        b, n, *_, h = *x.shape, self.heads

        q = self.to_q(x)
        y = q.shape[2]

        qkv = (q, self.to_k(x), self.to_v(x))
        q, k, v = map(lambda t: t.reshape(b, h, t.shape[1] // h, -1).transpose(-1, -2), qkv)

        dots = torch.einsum('bhid,bhjd->bhij', q, k) * self.scale

        dots = self.apply_pos_bias(dots)

        attn = self.attend(dots)
        attn = self.dropout(attn)

        out = torch.einsum('bhij,bhjd->bhid', attn, v)
        out = out.transpose(-1, -2).reshape(b, -1, out.shape[2] // y, y)
        return self.to_out(out)

attn = Attention(dim = 32, fmap_size = 8, heads = 4, dim_key = 16, dim_value = 16).to("cuda:0").eval()
attn_down = Attention(dim = 32, fmap_size = 8, heads = 4, dim_key = 16, dim_value = 16,
                      dim_out = 64, downsample = True).to("cuda:0").eval()
fmap = torch.randn(2, 32, 8, 8, device = "cuda:0")
'''
CELL = '''
out = attn(fmap) + fmap
out = attn_down(out)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
