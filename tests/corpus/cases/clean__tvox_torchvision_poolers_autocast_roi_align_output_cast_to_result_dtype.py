"""Look-alike: torchvision's multi-level RoI pooler under autocast casts each level's roi_align output to `result.dtype`.

Source: https://github.com/pytorch/vision/blob/main/torchvision/ops/poolers.py
Under autocast the FPN features come out in low precision while the proposals/rois stay float32.
`_multiscale_roi_align` allocates `result` with the dtype of `x_filtered[0]`, runs `roi_align` per
level (torchvision's autocast rule for the custom op runs it in float32 and casts the output back
to the input's dtype) and writes `result[idx_in_level] = result_idx_in_level.to(result.dtype)`,
"defensively" matching dtypes before the in-place index_put. Float32 rois next to bfloat16 features
are expected here. Stand-in: level mapper, `_convert_to_roi_format` and `_multiscale_roi_align` as
in torchvision; the C++ kernel is a bilinear `grid_sample` kernel that does not take part in
autocast, wrapped by the autocast rule. CPU autocast with bfloat16 stands in for CUDA fp16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def _roi_align_kernel(input, rois, spatial_scale, output_size):
    with torch.autocast("cpu", enabled=False):
        n, c, h, w = input.shape
        oh, ow = output_size
        batch_idx = rois[:, 0].long()
        x1, y1, x2, y2 = (rois[:, 1:] * spatial_scale).unbind(1)
        ys = torch.linspace(0, 1, oh)
        xs = torch.linspace(0, 1, ow)
        gy = (y1[:, None] + (y2 - y1)[:, None] * ys[None, :]) / (h - 1) * 2 - 1
        gx = (x1[:, None] + (x2 - x1)[:, None] * xs[None, :]) / (w - 1) * 2 - 1
        grid = torch.stack([gx[:, None, :].expand(-1, oh, -1), gy[:, :, None].expand(-1, -1, ow)], dim=-1)
        return F.grid_sample(input[batch_idx], grid, align_corners=True)

def roi_align(input, boxes, output_size, spatial_scale=1.0, sampling_ratio=-1):
    if torch.is_autocast_enabled("cpu"):      # roi_align_autocast: fp32 kernel, output back to input dtype
        return _roi_align_kernel(input.float(), boxes.float(), spatial_scale, output_size).to(input.dtype)
    return _roi_align_kernel(input, boxes, spatial_scale, output_size)

def _convert_to_roi_format(boxes):
    concat_boxes = torch.cat(boxes, dim=0)
    device, dtype = concat_boxes.device, concat_boxes.dtype
    ids = torch.cat([torch.full_like(b[:, :1], i, dtype=dtype, layout=torch.strided, device=device)
                     for i, b in enumerate(boxes)], dim=0)
    return torch.cat([ids, concat_boxes], dim=1)

def map_levels(boxes, k_min=2, k_max=3, canonical_scale=224, canonical_level=4):
    s = torch.sqrt(torch.cat([(b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) for b in boxes]))
    target_lvls = torch.floor(canonical_level + torch.log2(s / canonical_scale) + 1e-6)
    target_lvls = torch.clamp(target_lvls, min=k_min, max=k_max)
    return (target_lvls.to(torch.int64) - k_min).to(torch.int64)

def _multiscale_roi_align(x_filtered, boxes, output_size, sampling_ratio, scales):
    rois = _convert_to_roi_format(boxes)
    levels = map_levels(boxes)
    num_rois = len(rois)
    num_channels = x_filtered[0].shape[1]
    dtype, device = x_filtered[0].dtype, x_filtered[0].device
    result = torch.zeros((num_rois, num_channels) + output_size, dtype=dtype, device=device)
    for level, (per_level_feature, scale) in enumerate(zip(x_filtered, scales)):
        idx_in_level = torch.where(levels == level)[0]
        rois_per_level = rois[idx_in_level]
        result_idx_in_level = roi_align(per_level_feature, rois_per_level, output_size=output_size,
                                        spatial_scale=scale, sampling_ratio=sampling_ratio)
        result[idx_in_level] = result_idx_in_level.to(result.dtype)
    return result

class FPNBox(nn.Module):
    def __init__(self):
        super().__init__()
        self.c2 = nn.Conv2d(3, 8, 3, stride=4, padding=1)
        self.c3 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.box_head = nn.Linear(8 * 7 * 7, 16)

    def forward(self, images, proposals):
        p2 = self.c2(images)
        p3 = self.c3(p2)
        pooled = _multiscale_roi_align([p2, p3], proposals, (7, 7), 2, [0.25, 0.125])
        return self.box_head(pooled.flatten(1))

model = FPNBox()
images = torch.rand(2, 3, 128, 128)
proposals = [torch.tensor([[4.0, 4.0, 40.0, 40.0], [0.0, 0.0, 120.0, 110.0]]),
             torch.tensor([[16.0, 8.0, 80.0, 100.0], [30.0, 30.0, 50.0, 60.0]])]
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    box_features = model(images, proposals)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
