"""RT-DETRv4: the HybridEncoder's precomputed eval `pos_embed` is a plain attribute, left on the CPU when the model moves to the GPU.

Source: https://github.com/RT-DETRs/RT-DETRv4/issues/36
"Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu!" -
the reporter moved "that cpu variable" to cuda; a later comment's patch adds
`pos_embed = pos_embed.to(tensor.device)` to `TransformerEncoderLayer.with_pos_embed`. With
`eval_spatial_size` set, `HybridEncoder._reset_parameters` stores the sin-cos position embedding with
`setattr(self, f'pos_embed{idx}', pos_embed)` - a plain tensor, not a buffer - so `model.to(device)`
leaves it on the CPU, and the eval-mode forward adds it to GPU features (training builds it on the
fly on the features' device). Stand-in: HybridEncoder reduced to input projections, one encoder layer
with a hand-written attention, and the sin-cos embedding; backbone by a strided conv. The GPU is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, dim_feedforward=64):
        super().__init__()
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)
        self.linear1, self.linear2 = nn.Linear(d_model, dim_feedforward), nn.Linear(dim_feedforward, d_model)
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    @staticmethod
    def with_pos_embed(tensor, pos_embed):
        return tensor if pos_embed is None else tensor + pos_embed

    def forward(self, src, src_mask=None, pos_embed=None):
        q = k = self.with_pos_embed(src, pos_embed)
        attn = torch.softmax(self.q_proj(q) @ self.k_proj(k).transpose(1, 2) / q.shape[-1] ** 0.5, dim=-1)
        src = self.norm1(src + attn @ self.v_proj(src))
        return self.norm2(src + self.linear2(F.gelu(self.linear1(src))))

class HybridEncoder(nn.Module):
    def __init__(self, in_channels=(32, 64), feat_strides=(8, 16), hidden_dim=32, use_encoder_idx=(1,),
                 pe_temperature=10000, eval_spatial_size=(64, 64)):
        super().__init__()
        self.in_channels, self.feat_strides, self.hidden_dim = in_channels, feat_strides, hidden_dim
        self.use_encoder_idx, self.pe_temperature, self.eval_spatial_size = use_encoder_idx, pe_temperature, eval_spatial_size
        self.input_proj = nn.ModuleList(nn.Sequential(nn.Conv2d(c, hidden_dim, 1, bias=False), nn.BatchNorm2d(hidden_dim))
                                        for c in in_channels)
        self.encoder = nn.ModuleList(TransformerEncoderLayer(hidden_dim) for _ in use_encoder_idx)
        self._reset_parameters()

    def _reset_parameters(self):
        if self.eval_spatial_size:
            for idx in self.use_encoder_idx:
                stride = self.feat_strides[idx]
                pos_embed = self.build_2d_sincos_position_embedding(
                    self.eval_spatial_size[1] // stride, self.eval_spatial_size[0] // stride,
                    self.hidden_dim, self.pe_temperature)
                setattr(self, f'pos_embed{idx}', pos_embed)

    @staticmethod
    def build_2d_sincos_position_embedding(w, h, embed_dim=256, temperature=10000.):
        grid_w = torch.arange(int(w), dtype=torch.float32)
        grid_h = torch.arange(int(h), dtype=torch.float32)
        grid_w, grid_h = torch.meshgrid(grid_w, grid_h, indexing='ij')
        pos_dim = embed_dim // 4
        omega = 1. / (temperature ** (torch.arange(pos_dim, dtype=torch.float32) / pos_dim))
        out_w = grid_w.flatten()[..., None] @ omega[None]
        out_h = grid_h.flatten()[..., None] @ omega[None]
        return torch.concat([out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()], dim=1)[None, :, :]

    def forward(self, feats):
        proj_feats = [self.input_proj[i](feat) for i, feat in enumerate(feats)]
        for i, enc_ind in enumerate(self.use_encoder_idx):
            h, w = proj_feats[enc_ind].shape[2:]
            src_flatten = proj_feats[enc_ind].flatten(2).permute(0, 2, 1)
            if self.training or self.eval_spatial_size is None:
                pos_embed = self.build_2d_sincos_position_embedding(
                    w, h, self.hidden_dim, self.pe_temperature).to(src_flatten.device)
            else:
                pos_embed = getattr(self, f'pos_embed{enc_ind}', None)
            memory = self.encoder[i](src_flatten, pos_embed=pos_embed)
            proj_feats[enc_ind] = memory.permute(0, 2, 1).reshape(-1, self.hidden_dim, h, w).contiguous()
        return proj_feats

class RTv4(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 32, 3, 8, 1), nn.Conv2d(32, 64, 3, 2, 1)])
        self.encoder = HybridEncoder()
        self.decoder = nn.Conv2d(32, 4 + 80, 1)

    def forward(self, x):
        c3 = self.backbone[0](x)
        c4 = self.backbone[1](c3)
        feats = self.encoder([c3, c4])
        return [self.decoder(f) for f in feats]

device = torch.device('meta')                  # cfg.device = 'cuda:1'
model = RTv4().to(device)
samples = torch.rand(2, 3, 64, 64).to(device)
outputs = model(samples)                       # training mode: the embedding is built on the fly
'''
CELL = '''
model.eval()
with torch.no_grad():
    outputs = model(samples)                   # evaluate(): the precomputed eval embedding is used
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.encoder.pos_embed1"]
FIX = "namespace"
REFERENCE_FIX = '''
model.encoder.pos_embed1 = model.encoder.pos_embed1.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
