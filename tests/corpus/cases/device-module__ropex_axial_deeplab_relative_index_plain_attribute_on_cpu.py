"""self-attention-cv's AxialAttentionBlock on the GPU: the 2D relative position index is a plain tensor attribute left on the CPU.

Source: https://github.com/The-AI-Summer/self-attention-cv/issues/3
"AxialAttentionBlock : Doesn't work on gpu": the block fails in
`Relative2DPosEncQKV.forward` at `torch.index_select(self.relative, 1, self.relative_index_2d)`
("Input, output and indices must be on the current device"); moving the inputs did not help.
`relative_index_2d` is built in `__init__` and stored as a plain attribute, so `model.to(device)`
moves the `relative` Parameter but not the index. The maintainer's fix in `forward`:
`rel_indx = self.relative_index_2d.to(self.relative.device)`. Stand-in: the library's
`Relative2DPosEncQKV`, `AxialAttention` and `AxialAttentionBlock` with the einops `rearrange`
calls written as reshape/permute (einops is not installed here).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Relative2DPosEncQKV(nn.Module):
    def __init__(self, dim_head, dim_v=16, dim_kq=8):
        super().__init__()
        self.dim = dim_head
        self.dim_head_v = dim_v
        self.dim_head_kq = dim_kq
        self.qkv_chan = 2 * self.dim_head_kq + self.dim_head_v
        self.relative = nn.Parameter(torch.randn(self.qkv_chan, dim_head * 2 - 1), requires_grad=True)
        self.relative_index_2d = self.relative_index()

    def relative_index(self):
        query_index = torch.arange(self.dim).unsqueeze(0)  # [1, dim]
        key_index = torch.arange(self.dim).unsqueeze(1)  # [dim, 1]
        relative_index_2d = (key_index - query_index) + self.dim - 1  # dim X dim
        return relative_index_2d.reshape(-1)  # rearrange 'i j->(i j)'

    def forward(self):
        all_embeddings = torch.index_select(self.relative, 1, self.relative_index_2d)  # [head_planes , (dim*dim)]
        all_embeddings = all_embeddings.reshape(-1, self.dim, self.dim)
        q_embedding, k_embedding, v_embedding = torch.split(
            all_embeddings, [self.dim_head_kq, self.dim_head_kq, self.dim_head_v], dim=0)
        return q_embedding, k_embedding, v_embedding

def _conv1d1x1(in_channels, out_channels):
    return nn.Sequential(nn.Conv1d(in_channels, out_channels, kernel_size=1, stride=1, bias=False),
                         nn.BatchNorm1d(out_channels))

def _conv2d1x1(in_channels, out_channels):
    return nn.Sequential(nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, bias=False),
                         nn.BatchNorm2d(out_channels))

class AxialAttention(nn.Module):
    def __init__(self, dim, in_channels=128, heads=8, dim_head_kq=8):
        super().__init__()
        self.dim_head = in_channels // heads
        self.dim = dim
        self.heads = heads
        self.dim_head_v = self.dim_head
        self.dim_head_kq = dim_head_kq
        self.qkv_channels = self.dim_head_v + self.dim_head_kq * 2
        self.to_qvk = _conv1d1x1(in_channels, self.heads * self.qkv_channels)
        self.RelativePosEncQKV = Relative2DPosEncQKV(dim, self.dim_head_v, self.dim_head_kq)
        self.attention_norm = nn.BatchNorm2d(heads * 3)
        self.out_norm = nn.BatchNorm1d(in_channels * 2)

    def forward(self, x_in):
        b = x_in.shape[0]
        qkv = self.to_qvk(x_in).reshape(b, self.qkv_channels, self.heads, self.dim).permute(0, 2, 1, 3)
        q, k, v = torch.split(qkv, [self.dim_head_kq, self.dim_head_kq, self.dim_head_v], dim=2)
        r_q, r_k, r_v = self.RelativePosEncQKV()
        qr = torch.einsum('bhid,idj->bhdj', q, r_q)
        kr = torch.einsum('bhid,idj->bhdj', k, r_k)
        dots = torch.einsum('bhid,bhij->bhdj', q, k)
        stacked = torch.stack([qr, kr, dots], dim=2).reshape(b, self.heads * 3, self.dim, self.dim)
        norm_dots = self.attention_norm(stacked).reshape(b, self.heads, 3, self.dim, self.dim).sum(dim=2)
        attn = torch.softmax(norm_dots, dim=-1)
        out = torch.einsum('bhdj,bhij->bhid', attn, v)
        kv = torch.einsum('bhdj,idj->bhid', attn, r_v)
        out = self.out_norm(torch.stack([kv, out], dim=1).reshape(b, -1, self.dim))
        return out.reshape(b, 2, -1, self.dim).sum(dim=1)

class AxialAttentionBlock(nn.Module):
    def __init__(self, in_channels, dim, heads=8, dim_head=16):
        super().__init__()
        self.dim = dim
        self.dim_head = dim_head
        self.heads = heads
        d_in = 128  # hardcoded
        self.in_conv1x1 = _conv2d1x1(in_channels, d_in)
        self.out_conv1x1 = _conv2d1x1(d_in, in_channels)
        self.relu = nn.ReLU(inplace=True)
        self.width_att = AxialAttention(dim=dim, in_channels=d_in, heads=heads)
        self.height_att = AxialAttention(dim=dim, in_channels=d_in, heads=heads)

    def forward(self, x_in):
        b, c, h, w = x_in.shape
        x = self.relu(self.in_conv1x1(x_in))
        x = x.permute(0, 3, 1, 2).reshape(b * w, -1, h)           # 'b c h w -> (b w) c h'
        x = self.height_att(x)
        x = x.reshape(b, w, -1, h).permute(0, 3, 2, 1).reshape(b * h, -1, w)   # '(b w) c h -> (b h) c w'
        x = self.relu(self.width_att(x))
        x = x.reshape(b, h, -1, w).permute(0, 2, 1, 3)            # '(b h) c w -> b c h w'
        return self.relu(self.out_conv1x1(x) + x_in)

device = torch.device("cuda:0")
model = AxialAttentionBlock(in_channels=256, dim=16, heads=8)
model.eval()
model = model.to(device)
x = torch.rand(2, 256, 16, 16).to(device)
'''
CELL = '''
with torch.no_grad():
    y = model(x)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must be on the current device")
CULPRITS = ["model.height_att.RelativePosEncQKV"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("all_embeddings = torch.index_select(self.relative, 1, self.relative_index_2d)",
                  "rel_indx = self.relative_index_2d.to(self.relative.device)\n"
                  "        all_embeddings = torch.index_select(self.relative, 1, rel_indx)")
CLEAN = False
