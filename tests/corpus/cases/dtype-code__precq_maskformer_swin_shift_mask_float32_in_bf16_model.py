"""MaskFormerSwin in bfloat16: the shifted-window attention mask is built as float32 and promotes the scores.

Source: https://github.com/huggingface/transformers/issues/47743
The report: a tiny randomly initialised `MaskFormerSwinModel` runs in float32, but after
`model = model.to(torch.bfloat16)` and `model(pixel_values.to(torch.bfloat16))` it fails ("mat1
and mat2"/"expected ... same dtype" in the attention). `MaskFormerSwinLayer.get_attn_mask` makes
`img_mask = torch.zeros((1, height, width, 1))` with no dtype, so the mask is float32; adding it to
the bf16 attention scores promotes them to float32, and `torch.matmul(attention_probs,
value_layer)` then meets the bf16 values. The plain Swin model already builds the mask with the
hidden states' dtype (`get_attn_mask(height, width, dtype=..., device=...)`); the reference edit
gives the mask that dtype where the layer already moves it to the windows' device.
Stand-in: one shifted MaskFormerSwin layer (window partition, window self-attention with relative
position bias, mask) on a patch embedding; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

def window_partition(input_feature, window_size):
    batch_size, height, width, num_channels = input_feature.shape
    input_feature = input_feature.view(batch_size, height // window_size, window_size, width // window_size, window_size, num_channels)
    return input_feature.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, num_channels)

def window_reverse(windows, window_size, height, width):
    num_channels = windows.shape[-1]
    windows = windows.view(-1, height // window_size, width // window_size, window_size, window_size, num_channels)
    return windows.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, height, width, num_channels)

class MaskFormerSwinSelfAttention(nn.Module):
    def __init__(self, dim, num_heads, window_size):
        super().__init__()
        self.num_attention_heads = num_heads
        self.attention_head_size = dim // num_heads
        self.window_size = window_size
        self.relative_position_bias_table = nn.Parameter(torch.zeros((2 * window_size - 1) ** 2, num_heads))
        coords = torch.stack(torch.meshgrid(torch.arange(window_size), torch.arange(window_size), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window_size - 1)
        self.register_buffer("relative_position_index", rel[..., 0] * (2 * window_size - 1) + rel[..., 1])
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)

    def transpose_for_scores(self, x):
        return x.view(x.shape[0], x.shape[1], self.num_attention_heads, self.attention_head_size).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None):
        batch_size, dim, num_channels = hidden_states.shape
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        relative_position_bias = self.relative_position_bias_table[self.relative_position_index.view(-1)]
        relative_position_bias = relative_position_bias.view(dim, dim, -1).permute(2, 0, 1).contiguous()
        attention_scores = attention_scores + relative_position_bias.unsqueeze(0)
        if attention_mask is not None:
            mask_shape = attention_mask.shape[0]
            attention_scores = attention_scores.view(batch_size // mask_shape, mask_shape, self.num_attention_heads, dim, dim)
            attention_scores = attention_scores + attention_mask.unsqueeze(1).unsqueeze(0)
            attention_scores = attention_scores.view(-1, self.num_attention_heads, dim, dim)
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        context_layer = torch.matmul(attention_probs, value_layer)
        return context_layer.permute(0, 2, 1, 3).reshape(batch_size, dim, num_channels)

class MaskFormerSwinLayer(nn.Module):
    def __init__(self, dim=8, num_heads=2, window_size=4, shift_size=2):
        super().__init__()
        self.window_size = window_size
        self.shift_size = shift_size
        self.layernorm_before = nn.LayerNorm(dim)
        self.attention = MaskFormerSwinSelfAttention(dim, num_heads, window_size)

    def get_attn_mask(self, input_resolution):
        if self.shift_size > 0:
            height, width = input_resolution
            img_mask = torch.zeros((1, height, width, 1))
            height_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
            width_slices = (slice(0, -self.window_size), slice(-self.window_size, -self.shift_size), slice(-self.shift_size, None))
            count = 0
            for height_slice in height_slices:
                for width_slice in width_slices:
                    img_mask[:, height_slice, width_slice, :] = count
                    count += 1
            mask_windows = window_partition(img_mask, self.window_size)
            mask_windows = mask_windows.view(-1, self.window_size * self.window_size)
            attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        else:
            attn_mask = None
        return attn_mask

    def forward(self, hidden_states, input_dimensions):
        height, width = input_dimensions
        batch_size, dim, channels = hidden_states.size()
        shortcut = hidden_states
        hidden_states = self.layernorm_before(hidden_states).view(batch_size, height, width, channels)
        shifted_hidden_states = torch.roll(hidden_states, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))
        hidden_states_windows = window_partition(shifted_hidden_states, self.window_size)
        hidden_states_windows = hidden_states_windows.view(-1, self.window_size * self.window_size, channels)
        attn_mask = self.get_attn_mask((height, width))
        if attn_mask is not None:
            attn_mask = attn_mask.to(hidden_states_windows.device)
        attention_output = self.attention(hidden_states_windows, attn_mask)
        attention_windows = attention_output.view(-1, self.window_size, self.window_size, channels)
        shifted_windows = window_reverse(attention_windows, self.window_size, height, width)
        attention_windows = torch.roll(shifted_windows, shifts=(self.shift_size, self.shift_size), dims=(1, 2))
        return shortcut + attention_windows.view(batch_size, height * width, channels)

class MaskFormerSwinModel(nn.Module):
    def __init__(self, patch_size=2, embed_dim=8):
        super().__init__()
        self.patch_embeddings = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.layer = MaskFormerSwinLayer(dim=embed_dim)

    def forward(self, pixel_values):
        embeddings = self.patch_embeddings(pixel_values)
        _, _, height, width = embeddings.shape
        return self.layer(embeddings.flatten(2).transpose(1, 2), (height, width))

torch.manual_seed(0)
model = MaskFormerSwinModel().eval()
pixel_values = torch.randn(1, 3, 32, 32)
with torch.no_grad():
    print("float32:", model(pixel_values).shape)
model = model.to(torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    print("bfloat16:", model(pixel_values.to(torch.bfloat16)).shape)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2")
CULPRITS = ["model.layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("attn_mask = attn_mask.to(hidden_states_windows.device)", "attn_mask = attn_mask.to(hidden_states_windows.device, hidden_states_windows.dtype)")
CLEAN = False
