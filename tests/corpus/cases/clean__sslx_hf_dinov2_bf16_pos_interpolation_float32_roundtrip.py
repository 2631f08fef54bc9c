"""Look-alike: a bfloat16 DINOv2 (transformers) casts pixel values to the patch weights and interpolates positions in float32.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/dinov2/modeling_dinov2.py
With the model in bf16 and the image processor's float32 `pixel_values` at a resolution other than the
checkpoint's, `Dinov2Embeddings.forward` casts the pixels to `self.patch_embeddings.projection.weight.dtype`,
and `interpolate_pos_encoding` deliberately runs the bicubic resize of the bf16 position table in
float32 (`patch_pos_embed.to(torch.float32)`) and casts the result back with `.to(dtype=target_dtype)`:
float32 tensors next to bf16 weights, by design. Stand-in: `Dinov2Embeddings` / `Dinov2PatchEmbeddings`
as in the file (no mask token) with a one-layer encoder on a small config.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import collections.abc
from types import SimpleNamespace
import torch
from torch import nn

def torch_int(x):
    return int(x)

class Dinov2PatchEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        image_size, patch_size = config.image_size, config.patch_size
        image_size = image_size if isinstance(image_size, collections.abc.Iterable) else (image_size, image_size)
        patch_size = patch_size if isinstance(patch_size, collections.abc.Iterable) else (patch_size, patch_size)
        self.num_patches = (image_size[1] // patch_size[1]) * (image_size[0] // patch_size[0])
        self.num_channels = config.num_channels
        self.projection = nn.Conv2d(config.num_channels, config.hidden_size, kernel_size=patch_size, stride=patch_size)

    def forward(self, pixel_values):
        return self.projection(pixel_values).flatten(2).transpose(1, 2)

class Dinov2Embeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.cls_token = nn.Parameter(torch.randn(1, 1, config.hidden_size))
        self.patch_embeddings = Dinov2PatchEmbeddings(config)
        num_patches = self.patch_embeddings.num_patches
        self.position_embeddings = nn.Parameter(torch.randn(1, num_patches + 1, config.hidden_size))
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.patch_size = config.patch_size

    def interpolate_pos_encoding(self, embeddings, height, width):
        num_patches = embeddings.shape[1] - 1
        num_positions = self.position_embeddings.shape[1] - 1
        if not torch.jit.is_tracing() and num_patches == num_positions and height == width:
            return self.position_embeddings
        class_pos_embed = self.position_embeddings[:, :1]
        patch_pos_embed = self.position_embeddings[:, 1:]
        dim = embeddings.shape[-1]
        new_height = height // self.patch_size
        new_width = width // self.patch_size
        sqrt_num_positions = torch_int(num_positions**0.5)
        patch_pos_embed = patch_pos_embed.reshape(1, sqrt_num_positions, sqrt_num_positions, dim)
        patch_pos_embed = patch_pos_embed.permute(0, 3, 1, 2)
        target_dtype = patch_pos_embed.dtype
        patch_pos_embed = nn.functional.interpolate(
            patch_pos_embed.to(torch.float32),
            size=(new_height, new_width),
            mode="bicubic",
            align_corners=False,
        ).to(dtype=target_dtype)
        patch_pos_embed = patch_pos_embed.permute(0, 2, 3, 1).view(1, -1, dim)
        return torch.cat((class_pos_embed, patch_pos_embed), dim=1)

    def forward(self, pixel_values, bool_masked_pos=None):
        batch_size, _, height, width = pixel_values.shape
        target_dtype = self.patch_embeddings.projection.weight.dtype
        embeddings = self.patch_embeddings(pixel_values.to(dtype=target_dtype))
        cls_tokens = self.cls_token.expand(batch_size, -1, -1)
        embeddings = torch.cat((cls_tokens, embeddings), dim=1)
        embeddings = embeddings + self.interpolate_pos_encoding(embeddings, height, width)
        return self.dropout(embeddings)

class Dinov2Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = Dinov2Embeddings(config)
        self.encoder = nn.Sequential(nn.LayerNorm(config.hidden_size), nn.Linear(config.hidden_size, config.hidden_size))
        self.layernorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, pixel_values=None):
        sequence_output = self.layernorm(self.encoder(self.embeddings(pixel_values)))
        return sequence_output, sequence_output[:, 0, :]

config = SimpleNamespace(image_size=56, patch_size=14, num_channels=3, hidden_size=64,
                         hidden_dropout_prob=0.0, layer_norm_eps=1e-6)
model = Dinov2Model(config).to(torch.bfloat16)            # torch_dtype=torch.bfloat16
pixel_values = torch.rand(2, 3, 84, 84)                    # image processor output at another resolution
'''
CELL = '''
with torch.no_grad():
    sequence_output, pooled_output = model(pixel_values=pixel_values)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
