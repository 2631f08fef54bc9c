"""transformers Grounding DINO in fp16: the encoder's reference points are built in float32 and reach grid_sample with half values.

Source: https://github.com/huggingface/transformers/issues/32672
"fp16 support for grounding dino": with `model.half()` and half `pixel_values` the forward crashed in
the encoder's multi-scale deformable attention. `get_valid_ratio` returns `valid_height.float() / height`
and `get_reference_points` builds its grids with `torch.linspace(..., dtype=torch.float32)`, so the
reference points, and with them the sampling locations, are float32 while the projected values are
half: `grid_sample` refuses the float32 grid (the fix, transformers PR 48438, builds these tensors in
the model dtype). Stand-in: the model reduced to a one-conv backbone, `get_valid_ratio`, one encoder
layer with the pure-PyTorch `multi_scale_deformable_attention`; no text branch, no position
embeddings, no decoder.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def multi_scale_deformable_attention(value, value_spatial_shapes, sampling_locations, attention_weights):
    batch_size, _, num_heads, hidden_dim = value.shape
    _, num_queries, num_heads, num_levels, num_points, _ = sampling_locations.shape
    value_list = value.split([height * width for height, width in value_spatial_shapes], dim=1)
    sampling_grids = 2 * sampling_locations - 1
    sampling_value_list = []
    for level_id, (height, width) in enumerate(value_spatial_shapes):
        value_l_ = value_list[level_id].flatten(2).transpose(1, 2).reshape(batch_size * num_heads, hidden_dim, height, width)
        sampling_grid_l_ = sampling_grids[:, :, :, level_id].transpose(1, 2).flatten(0, 1)
        sampling_value_l_ = F.grid_sample(value_l_, sampling_grid_l_, mode="bilinear", padding_mode="zeros", align_corners=False)
        sampling_value_list.append(sampling_value_l_)
    attention_weights = attention_weights.transpose(1, 2).reshape(batch_size * num_heads, 1, num_queries, num_levels * num_points)
    output = (torch.stack(sampling_value_list, dim=-2).flatten(-2) * attention_weights).sum(-1)
    output = output.view(batch_size, num_heads * hidden_dim, num_queries)
    return output.transpose(1, 2).contiguous()

class GroundingDinoMultiscaleDeformableAttention(nn.Module):
    def __init__(self, d_model=32, n_levels=2, n_heads=4, n_points=2):
        super().__init__()
        self.d_model, self.n_levels, self.n_heads, self.n_points = d_model, n_levels, n_heads, n_points
        self.sampling_offsets = nn.Linear(d_model, n_heads * n_levels * n_points * 2)
        self.attention_weights = nn.Linear(d_model, n_heads * n_levels * n_points)
        self.value_proj = nn.Linear(d_model, d_model)
        self.output_proj = nn.Linear(d_model, d_model)

    def forward(self, hidden_states, encoder_hidden_states, reference_points, spatial_shapes):
        batch_size, num_queries, _ = hidden_states.shape
        _, sequence_length, _ = encoder_hidden_states.shape
        value = self.value_proj(encoder_hidden_states)
        value = value.view(batch_size, sequence_length, self.n_heads, self.d_model // self.n_heads)
        sampling_offsets = self.sampling_offsets(hidden_states).view(
            batch_size, num_queries, self.n_heads, self.n_levels, self.n_points, 2)
        attention_weights = self.attention_weights(hidden_states).view(
            batch_size, num_queries, self.n_heads, self.n_levels * self.n_points)
        attention_weights = F.softmax(attention_weights, -1).view(
            batch_size, num_queries, self.n_heads, self.n_levels, self.n_points)
        offset_normalizer = torch.stack([spatial_shapes[..., 1], spatial_shapes[..., 0]], -1)
        sampling_locations = (reference_points[:, :, None, :, None, :]
                              + sampling_offsets / offset_normalizer[None, None, None, :, None, :])
        output = multi_scale_deformable_attention(value, spatial_shapes, sampling_locations, attention_weights)
        return self.output_proj(output)

class GroundingDinoEncoder(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.self_attn = GroundingDinoMultiscaleDeformableAttention(d_model)
        self.norm = nn.LayerNorm(d_model)

    @staticmethod
    def get_reference_points(spatial_shapes, valid_ratios, device):
        reference_points_list = []
        for level, (height, width) in enumerate(spatial_shapes):
            ref_y, ref_x = torch.meshgrid(
                torch.linspace(0.5, height - 0.5, height, dtype=torch.float32, device=device),
                torch.linspace(0.5, width - 0.5, width, dtype=torch.float32, device=device),
                indexing="ij")
            ref_y = ref_y.reshape(-1)[None] / (valid_ratios[:, None, level, 1] * height)
            ref_x = ref_x.reshape(-1)[None] / (valid_ratios[:, None, level, 0] * width)
            reference_points_list.append(torch.stack((ref_x, ref_y), -1))
        reference_points = torch.cat(reference_points_list, 1)
        reference_points = reference_points[:, :, None] * valid_ratios[:, None]
        return reference_points

    def forward(self, vision_features, spatial_shapes, valid_ratios):
        reference_points = self.get_reference_points(spatial_shapes, valid_ratios, device=vision_features.device)
        attn = self.self_attn(vision_features, vision_features, reference_points, spatial_shapes)
        return self.norm(vision_features + attn)

class GroundingDinoModel(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, 2, 1), nn.Conv2d(16, 16, 3, 2, 1)])
        self.input_proj_vision = nn.ModuleList([nn.Conv2d(16, d_model, 1), nn.Conv2d(16, d_model, 1)])
        self.encoder = GroundingDinoEncoder(d_model)

    def get_valid_ratio(self, mask):
        _, height, width = mask.shape
        valid_height = torch.sum(mask[:, :, 0], 1)
        valid_width = torch.sum(mask[:, 0, :], 1)
        valid_ratio_heigth = valid_height.float() / height
        valid_ratio_width = valid_width.float() / width
        return torch.stack([valid_ratio_width, valid_ratio_heigth], -1)

    def forward(self, pixel_values, pixel_mask):
        features, masks, x = [], [], pixel_values
        for conv, proj in zip(self.backbone, self.input_proj_vision):
            x = conv(x)
            features.append(proj(x))
            masks.append(F.interpolate(pixel_mask[None].float(), size=x.shape[-2:]).to(torch.bool)[0])
        spatial_shapes = torch.as_tensor([f.shape[-2:] for f in features], dtype=torch.long)
        source_flatten = torch.cat([f.flatten(2).transpose(1, 2) for f in features], 1)
        valid_ratios = torch.stack([self.get_valid_ratio(m) for m in masks], 1)
        return self.encoder(source_flatten, spatial_shapes, valid_ratios)

model = GroundingDinoModel()        # DeformableDetrModel / GroundingDinoModel.from_pretrained(...)
model = model.half()                # model.cuda().half()
inputs = {"pixel_values": torch.rand(1, 3, 32, 32), "pixel_mask": torch.ones(1, 32, 32, dtype=torch.long)}
inputs["pixel_values"] = inputs["pixel_values"].half()
'''
CELL = '''
outputs = model(**inputs)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "expected input and grid to have same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("reference_points = self.get_reference_points(spatial_shapes, valid_ratios, device=vision_features.device)",
                  "reference_points = self.get_reference_points(spatial_shapes, valid_ratios, device=vision_features.device).to(vision_features.dtype)")
CLEAN = False
