"""Look-alike: RT-DETR's HybridEncoder builds its sin-cos positional embedding on the CPU and moves it at use.

Source: https://github.com/lyuwenyu/RT-DETR/blob/main/rtdetr_pytorch/src/zoo/rtdetr/hybrid_encoder.py
In training (or without a fixed `eval_spatial_size`), `HybridEncoder.forward` calls
`build_2d_sincos_position_embedding(w, h, hidden_dim, temperature)` — `torch.arange`/`meshgrid` with
no device, so a CPU tensor — and immediately `.to(src_flatten.device)` before the transformer
encoder layer adds it to the flattened features (the eager code that docling's traced layout model
froze, docling-project/docling-ibm-models#55). Nothing to report. Stand-in: the encoder reduced to the
input projection, the positional embedding and one encoder layer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def build_2d_sincos_position_embedding(w, h, embed_dim=32, temperature=10000.0):
    grid_w = torch.arange(int(w), dtype=torch.float32)
    grid_h = torch.arange(int(h), dtype=torch.float32)
    grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing="ij")
    pos_dim = embed_dim // 4
    omega = 1.0 / (temperature ** (torch.arange(pos_dim, dtype=torch.float32) / pos_dim))
    out_w = grid_w.flatten()[..., None] @ omega[None]
    out_h = grid_h.flatten()[..., None] @ omega[None]
    return torch.cat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1)[None, :, :]

class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model=32, nhead=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)

    def forward(self, src, pos_embed):
        q = k = src + pos_embed
        src2, _ = self.self_attn(q, k, value=src)
        return self.norm1(src + src2)

class HybridEncoder(nn.Module):
    def __init__(self, hidden_dim=32, pe_temperature=10000.0):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.pe_temperature = pe_temperature
        self.input_proj = nn.Conv2d(16, hidden_dim, 1)
        self.layer = TransformerEncoderLayer(hidden_dim)

    def forward(self, feat):
        proj = self.input_proj(feat)
        h, w = proj.shape[2:]
        src_flatten = proj.flatten(2).permute(0, 2, 1)
        pos_embed = build_2d_sincos_position_embedding(
            w, h, self.hidden_dim, self.pe_temperature).to(src_flatten.device)
        memory = self.layer(src_flatten, pos_embed)
        return memory.permute(0, 2, 1).reshape(-1, self.hidden_dim, h, w)

device = torch.device("cuda:0")
backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU()).to(device)
encoder = HybridEncoder().to(device).train()
images = torch.rand(2, 3, 32, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    memory = encoder(backbone(images))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
