"""Perceiver in float16: the Fourier position encoding is built on the fly in float32.

Source: https://github.com/huggingface/transformers/pull/21787
Loading `PerceiverForImageClassificationConvProcessing` with `torch_dtype=torch.float16` and feeding
float16 pixels raised "expected scalar type Float but found Half": `PerceiverFourierPositionEncoding`
generates its position features with `torch.linspace`/`torch.cat` in the default float32 and only
moves them `.to(device)`, so concatenating them with the half-precision inputs promotes the network
inputs to float32, which then meet half weights. The PR passes the input dtype to the encoding.
Simulated on the CPU with a small preprocessor + projection (no transformers).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

def build_linear_positions(index_dims, output_range=(-1.0, 1.0)):
    dims = [torch.linspace(output_range[0], output_range[1], steps=n) for n in index_dims]
    return torch.stack(torch.meshgrid(*dims, indexing="ij"), dim=-1)

def generate_fourier_features(pos, num_bands, max_resolution):
    batch_size = pos.shape[0]
    min_freq = 1.0
    freq_bands = torch.stack([torch.linspace(min_freq, res / 2, steps=num_bands) for res in max_resolution])
    per_pos_features = pos[0, :, :][:, :, None] * freq_bands[None, :, :]
    per_pos_features = per_pos_features.reshape(-1, per_pos_features.shape[1] * per_pos_features.shape[2])
    per_pos_features = torch.cat([torch.sin(math.pi * per_pos_features), torch.cos(math.pi * per_pos_features)], dim=-1)
    per_pos_features = torch.cat([pos[0], per_pos_features], dim=-1)
    return per_pos_features.unsqueeze(0).expand(batch_size, -1, -1)

class PerceiverFourierPositionEncoding(nn.Module):
    def __init__(self, num_bands, max_resolution):
        super().__init__()
        self.num_bands, self.max_resolution = num_bands, max_resolution

    def forward(self, index_dims, batch_size, device, dtype=None):
        pos = build_linear_positions(index_dims).reshape(1, -1, len(index_dims)).expand(batch_size, -1, -1)
        fourier_pos_enc = generate_fourier_features(pos, self.num_bands, self.max_resolution).to(device)
        return fourier_pos_enc

class PerceiverImagePreprocessor(nn.Module):
    def __init__(self, in_channels=3, num_bands=8, spatial=(16, 16), d_latents=64):
        super().__init__()
        self.conv_after_patches = nn.Linear(in_channels, 32)
        self.position_embeddings = PerceiverFourierPositionEncoding(num_bands, spatial)
        self.input_proj = nn.Linear(32 + 2 + 2 * 2 * num_bands, d_latents)

    def _build_network_inputs(self, inputs):
        batch_size, index_dims = inputs.shape[0], inputs.shape[1:-1]
        inputs = self.conv_after_patches(inputs).reshape(batch_size, -1, 32)
        pos_enc = self.position_embeddings(index_dims, batch_size, device=inputs.device)
        return torch.cat([inputs, pos_enc], dim=-1)

    def forward(self, pixel_values):
        return self.input_proj(self._build_network_inputs(pixel_values.permute(0, 2, 3, 1)))

model = PerceiverImagePreprocessor().to(torch.float16)       # from_pretrained(..., torch_dtype=torch.float16)
inputs = torch.rand(2, 3, 16, 16).to(torch.float16)
'''
CELL = '''
outputs = model(inputs)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type Float but found Half",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["pos_enc"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        pos_enc = self.position_embeddings(index_dims, batch_size, device=inputs.device)",
                  "        pos_enc = self.position_embeddings(index_dims, batch_size, device=inputs.device).to(inputs.dtype)")
CLEAN = False
