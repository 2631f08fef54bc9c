"""Training a bfloat16 DINOv2 (transformers) fails in the patch embedding: float32 pixel values meet bf16 conv weights.

Source: https://github.com/huggingface/transformers/pull/28504
The author wanted to train DINOv2 in bf16 and got "RuntimeError: Input type (float) and bias type
(c10::BFloat16) should be the same" at `Dinov2Embeddings.forward`: the image processor returns float32
`pixel_values`, and `self.patch_embeddings(pixel_values)` feeds them straight into the bf16
`Conv2d` projection. Following CLIP's vision embeddings, the merged fix casts the pixel values to the
projection weight's dtype inside `Dinov2Embeddings.forward`.
Stand-in: transformers' `Dinov2Embeddings` / `Dinov2PatchEmbeddings` as before the fix (no position
interpolation, no mask token) and a one-layer `Dinov2Model` on a small config; float32 `pixel_values`
play the image processor's output.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import collections.abc
from types import SimpleNamespace
import torch
from torch import nn

class Dinov2Config(SimpleNamespace):
    def __init__(self, image_size=56, patch_size=14, num_channels=3, hidden_size=64,
                 num_hidden_layers=1, hidden_dropout_prob=0.0, layer_norm_eps=1e-6, mlp_ratio=4):
        super().__init__(image_size=image_size, patch_size=patch_size, num_channels=num_channels,
                         hidden_size=hidden_size, num_hidden_layers=num_hidden_layers,
                         hidden_dropout_prob=hidden_dropout_prob, layer_norm_eps=layer_norm_eps,
                         mlp_ratio=mlp_ratio)

class Dinov2PatchEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        image_size, patch_size = config.image_size, config.patch_size
        num_channels, hidden_size = config.num_channels, config.hidden_size
        image_size = image_size if isinstance(image_size, collections.abc.Iterable) else (image_size, image_size)
        patch_size = patch_size if isinstance(patch_size, collections.abc.Iterable) else (patch_size, patch_size)
        self.num_patches = (image_size[1] // patch_size[1]) * (image_size[0] // patch_size[0])
        self.num_channels = num_channels
        self.projection = nn.Conv2d(num_channels, hidden_size, kernel_size=patch_size, stride=patch_size)

    def forward(self, pixel_values):
        num_channels = pixel_values.shape[1]
        if num_channels != self.num_channels:
            raise ValueError("Make sure that the channel dimension of the pixel values match with the one set in the configuration.")
        return self.projection(pixel_values).flatten(2).transpose(1, 2)

class Dinov2Embeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.cls_token = nn.Parameter(torch.randn(1, 1, config.hidden_size))
        self.patch_embeddings = Dinov2PatchEmbeddings(config)
        num_patches = self.patch_embeddings.num_patches
        self.position_embeddings = nn.Parameter(torch.randn(1, num_patches + 1, config.hidden_size))
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, pixel_values, bool_masked_pos=None):
        batch_size, _, height, width = pixel_values.shape
        embeddings = self.patch_embeddings(pixel_values)
        cls_tokens = self.cls_token.expand(batch_size, -1, -1)
        embeddings = torch.cat((cls_tokens, embeddings), dim=1)
        embeddings = embeddings + self.position_embeddings
        return self.dropout(embeddings)

class Dinov2Layer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.norm1 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.attention = nn.Linear(config.hidden_size, config.hidden_size)
        self.norm2 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.mlp = nn.Sequential(nn.Linear(config.hidden_size, config.hidden_size * config.mlp_ratio), nn.GELU(),
                                 nn.Linear(config.hidden_size * config.mlp_ratio, config.hidden_size))

    def forward(self, hidden_states):
        hidden_states = self.attention(self.norm1(hidden_states)) + hidden_states
        return self.mlp(self.norm2(hidden_states)) + hidden_states

class Dinov2Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = Dinov2Embeddings(config)
        self.encoder = nn.ModuleList([Dinov2Layer(config) for _ in range(config.num_hidden_layers)])
        self.layernorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, pixel_values=None, bool_masked_pos=None):
        hidden_states = self.embeddings(pixel_values, bool_masked_pos=bool_masked_pos)
        for layer in self.encoder:
            hidden_states = layer(hidden_states)
        sequence_output = self.layernorm(hidden_states)
        return sequence_output, sequence_output[:, 0, :]

config = Dinov2Config()
model = Dinov2Model(config).to(torch.bfloat16)          # train dinov2 with bf16
pixel_values = torch.rand(2, 3, 56, 56)                  # what the image processor returns (float32)
'''
CELL = '''
sequence_output, pooled_output = model(pixel_values=pixel_values)
'''
EXPECT_ERROR = "Input type (float) and bias type (c10::BFloat16) should be the same"
CULPRITS = ["model.embeddings"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        embeddings = self.patch_embeddings(pixel_values)",
    "        target_dtype = self.patch_embeddings.projection.weight.dtype\n"
    "        embeddings = self.patch_embeddings(pixel_values.to(dtype=target_dtype))",
)
CLEAN = False
