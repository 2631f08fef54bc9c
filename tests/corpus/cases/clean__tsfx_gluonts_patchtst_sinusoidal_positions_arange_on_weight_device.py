"""GluonTS PatchTST: `SinusoidalPositionalEmbedding` fills its weight from numpy at init and builds `positions` on `self.weight.device`.

Source: https://github.com/awslabs/gluonts/blob/dev/src/gluonts/torch/model/patch_tst/module.py
`SinusoidalPositionalEmbedding(nn.Embedding)` overwrites its weight in `__init__` with
`torch.FloatTensor(np.sin(...))`/`np.cos(...)` values (CPU, numpy-made, requires_grad=False), and its
`forward` makes `positions = torch.arange(..., device=self.weight.device)` from the input *shape*.
The scaler's loc/scale come from the batch. Look-alike: numpy-initialised tables and an `arange`
made inside forward -- both follow the module/weight, so a GPU PatchTSTModel runs. Stand-ins: the
embedding as in gluonts, a std scaler, patching with `unfold`, the patch projection and a linear
head (the transformer encoder and distribution head are left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SinusoidalPositionalEmbedding(nn.Embedding):
    def __init__(self, num_positions: int, embedding_dim: int) -> None:
        super().__init__(num_positions, embedding_dim)
        self.weight = self._init_weight(self.weight)

    @staticmethod
    def _init_weight(out):
        n_pos, dim = out.shape
        position_enc = np.array(
            [[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)]
        )
        out.requires_grad = False
        sentinel = dim // 2 if dim % 2 == 0 else (dim // 2) + 1
        out[:, 0:sentinel] = torch.FloatTensor(np.sin(position_enc[:, 0::2]))
        out[:, sentinel:] = torch.FloatTensor(np.cos(position_enc[:, 1::2]))
        out.detach_()
        return out

    @torch.no_grad()
    def forward(self, input_ids_shape, past_key_values_length: int = 0):
        _, seq_len = input_ids_shape[:2]
        positions = torch.arange(
            past_key_values_length, past_key_values_length + seq_len, dtype=torch.long, device=self.weight.device
        )
        return super().forward(positions)

class StdScaler(nn.Module):
    def __init__(self, dim=1, keepdim=True, minimum_scale=1e-5):
        super().__init__()
        self.dim, self.keepdim, self.minimum_scale = dim, keepdim, minimum_scale

    def forward(self, data, weights):
        denominator = weights.sum(self.dim, keepdim=self.keepdim).clamp_min(1.0)
        loc = (data * weights).sum(self.dim, keepdim=self.keepdim) / denominator
        variance = (((data - loc) * weights) ** 2).sum(self.dim, keepdim=self.keepdim) / denominator
        scale = torch.sqrt(variance + self.minimum_scale)
        return (data - loc) / scale, loc, scale

class PatchTSTModel(nn.Module):
    def __init__(self, prediction_length, context_length, patch_len, stride, d_model):
        super().__init__()
        self.prediction_length, self.context_length = prediction_length, context_length
        self.patch_len, self.stride, self.d_model = patch_len, stride, d_model
        self.scaler = StdScaler(keepdim=True)
        self.patch_num = int((context_length - patch_len) / stride + 1)
        self.patch_proj = nn.Linear(patch_len + 2, d_model)
        self.positional_encoding = SinusoidalPositionalEmbedding(self.patch_num, d_model)
        self.flatten = nn.Linear(d_model * self.patch_num, prediction_length)

    def forward(self, past_target, past_observed_values):
        past_target_scaled, loc, scale = self.scaler(past_target, past_observed_values)
        patches = past_target_scaled.unfold(dimension=1, size=self.patch_len, step=self.stride)
        expanded_static_feat = torch.cat((loc.abs().log1p(), scale.log()), dim=-1)
        expanded_static_feat = expanded_static_feat.unsqueeze(1).expand(-1, patches.shape[1], -1)
        inputs = torch.cat((patches, expanded_static_feat), dim=-1)
        enc_in = self.patch_proj(inputs)
        embed_pos = self.positional_encoding(enc_in.size())
        enc_out = enc_in + embed_pos
        out = self.flatten(enc_out.flatten(start_dim=1))
        return out * scale + loc

device = torch.device("cuda:0")
model = PatchTSTModel(prediction_length=24, context_length=96, patch_len=16, stride=8, d_model=32).to(device)
past_target = torch.randn(4, 96).to(device)
past_observed_values = torch.ones(4, 96).to(device)
'''
CELL = '''
forecast = model(past_target, past_observed_values)
print(forecast.shape, model.positional_encoding.weight.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
