"""RT-DETR's encoder keeps its precomputed position embedding as a plain attribute: `.half()` leaves it float32.

Source: https://github.com/lyuwenyu/RT-DETR/issues/677
`HybridEncoder._reset_parameters` stores the 2-D sin-cos embedding with
`setattr(self, f'pos_embed{idx}', pos_embed)` (the `register_buffer` line is commented out), so
`Module._apply` never sees it: after `model.half()` the weights are fp16 while `pos_embed2` stays
fp32, `src + pos_embed` promotes the query to fp32, and the attention's fp16 in-projection fails
on the dtype mismatch. Stand-in: one projection level and one encoder layer of the encoder.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward=64):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    @staticmethod
    def with_pos_embed(tensor, pos_embed):
        return tensor if pos_embed is None else tensor + pos_embed

    def forward(self, src, pos_embed=None):
        q = k = self.with_pos_embed(src, pos_embed)
        src2, _ = self.self_attn(q, k, value=src)
        src = self.norm1(src + src2)
        return self.norm2(src + self.linear2(torch.relu(self.linear1(src))))

class HybridEncoder(nn.Module):
    def __init__(self, in_channels=64, hidden_dim=32, nhead=4, feat_stride=32,
                 use_encoder_idx=2, pe_temperature=10000, eval_spatial_size=(256, 256)):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.feat_stride = feat_stride
        self.use_encoder_idx = use_encoder_idx
        self.pe_temperature = pe_temperature
        self.eval_spatial_size = eval_spatial_size
        self.input_proj = nn.Sequential(nn.Conv2d(in_channels, hidden_dim, 1, bias=False),
                                        nn.BatchNorm2d(hidden_dim))
        self.encoder = TransformerEncoderLayer(hidden_dim, nhead)
        self._reset_parameters()

    def _reset_parameters(self):
        if self.eval_spatial_size:
            idx = self.use_encoder_idx
            pos_embed = self.build_2d_sincos_position_embedding(
                self.eval_spatial_size[1] // self.feat_stride,
                self.eval_spatial_size[0] // self.feat_stride,
                self.hidden_dim, self.pe_temperature)
            setattr(self, f'pos_embed{idx}', pos_embed)
            # self.register_buffer(f'pos_embed{idx}', pos_embed)

    @staticmethod
    def build_2d_sincos_position_embedding(w, h, embed_dim=256, temperature=10000.):
        grid_w = torch.arange(int(w), dtype=torch.float32)
        grid_h = torch.arange(int(h), dtype=torch.float32)
        grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing='ij')
        pos_dim = embed_dim // 4
        omega = torch.arange(pos_dim, dtype=torch.float32) / pos_dim
        omega = 1. / (temperature ** omega)
        out_w = grid_w.flatten()[..., None] @ omega[None]
        out_h = grid_h.flatten()[..., None] @ omega[None]
        return torch.concat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1)[None, :, :]

    def forward(self, feat):
        proj_feat = self.input_proj(feat)
        h, w = proj_feat.shape[2:]
        src_flatten = proj_feat.flatten(2).permute(0, 2, 1)
        if self.training or self.eval_spatial_size is None:
            pos_embed = self.build_2d_sincos_position_embedding(
                w, h, self.hidden_dim, self.pe_temperature).to(src_flatten.device)
        else:
            pos_embed = getattr(self, f'pos_embed{self.use_encoder_idx}', None).to(src_flatten.device)
        memory = self.encoder(src_flatten, pos_embed=pos_embed)
        return memory.permute(0, 2, 1).reshape(-1, self.hidden_dim, h, w)

encoder = HybridEncoder().eval().half()
feat = torch.randn(1, 64, 8, 8).half()
'''
CELL = '''
with torch.no_grad():
    out = encoder(feat)
'''
EXPECT_ERROR = "to have the same dtype"
CULPRITS = ["encoder.pos_embed2"]
FIX = "namespace"
REFERENCE_FIX = '''
encoder.pos_embed2 = encoder.pos_embed2.half()
'''
REFERENCE_EDIT = None
CLEAN = False
