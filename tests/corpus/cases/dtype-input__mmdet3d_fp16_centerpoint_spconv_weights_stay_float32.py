"""mmdetection3d FP16 CenterPoint/SECOND: autocast casts the voxels to half, the spconv kernel gets float32 weights.

Source: https://github.com/open-mmlab/mmdetection3d/issues/965
"I am trying to use fp16 with CenterPoint but end up with the same bug" - "RuntimeError: expected
scalar type Half but found Float", thrown from `sparse_conv_ext.indice_conv_fp32` in
`mmdet3d/ops/spconv/ops.py`. With `fp16 = dict(loss_scale=512.)` on torch >= 1.6 mmcv's
`auto_fp16` casts the inputs to half and runs the forward under `autocast`, but never calls
`model.half()`; the spconv extension is not autocast-aware, so "the weights of sparse conv are not
converted into fp16 since the code run into the first if clause" (`filters.dtype == torch.float32`).
Stand-ins: the CUDA kernels by matmuls run with autocast off (as a custom op is), the
SparseEncoder by two submanifold convolutions over a fixed neighbour table, the detector by the
voxel encoder + middle encoder + a linear head.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import functools
import torch
import torch.nn as nn

def indice_conv_fp32(features, filters, indice_pairs):
    with torch.autocast("cpu", enabled=False):          # a CUDA extension: autocast never sees it
        gathered = features[indice_pairs].flatten(1)     # (N, K*Cin)
        return torch.mm(gathered, filters.view(-1, filters.shape[-1]))

def indice_conv_half(features, filters, indice_pairs):
    with torch.autocast("cpu", enabled=False):
        gathered = features[indice_pairs].flatten(1)
        return torch.mm(gathered, filters.view(-1, filters.shape[-1]))

def indice_conv(features, filters, indice_pairs):
    if filters.dtype == torch.float32:
        return indice_conv_fp32(features, filters, indice_pairs)
    elif filters.dtype == torch.half:
        return indice_conv_half(features, filters, indice_pairs)
    else:
        raise NotImplementedError

class SubMConv3d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_volume=27):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(kernel_volume, in_channels, out_channels) * 0.1)

    def forward(self, features, indice_pairs):
        return torch.relu(indice_conv(features, self.weight, indice_pairs))

class SparseEncoder(nn.Module):
    def __init__(self, in_channels=5, base_channels=16):
        super().__init__()
        self.conv_input = SubMConv3d(in_channels, base_channels)
        self.encoder_layer = SubMConv3d(base_channels, base_channels * 2)

    def forward(self, voxel_features, indice_pairs):
        x = self.conv_input(voxel_features, indice_pairs)
        return self.encoder_layer(x, indice_pairs)

class HardSimpleVFE(nn.Module):
    def forward(self, features, num_points):
        return features.sum(dim=1) / num_points.type_as(features).view(-1, 1)

def auto_fp16(old_func):
    """mmcv.runner.auto_fp16 on torch >= 1.6: cast float inputs to half, run under autocast."""
    @functools.wraps(old_func)
    def new_func(self, *args):
        if not getattr(self, "fp16_enabled", False):
            return old_func(self, *args)
        new_args = [a.half() if torch.is_tensor(a) and a.is_floating_point() else a for a in args]
        with torch.autocast("cpu", dtype=torch.float16):
            return old_func(self, *new_args)
    return new_func

class CenterPoint(nn.Module):
    def __init__(self):
        super().__init__()
        self.pts_voxel_encoder = HardSimpleVFE()
        self.pts_middle_encoder = SparseEncoder(5, 16)
        self.pts_bbox_head = nn.Linear(32, 10)
        self.fp16_enabled = False

    @auto_fp16
    def forward(self, voxels, num_points, indice_pairs):
        voxel_features = self.pts_voxel_encoder(voxels, num_points)
        x = self.pts_middle_encoder(voxel_features, indice_pairs)
        return self.pts_bbox_head(x)

model = CenterPoint()
model.fp16_enabled = True            # fp16 = dict(loss_scale=512.) in the config (wrap_fp16_model)

n_vox = 300
voxels = torch.randn(n_vox, 10, 5)                       # (num_voxels, max_points, C)
num_points = torch.randint(1, 11, (n_vox,))
indice_pairs = torch.randint(0, n_vox, (n_vox, 27))      # rulebook of the submanifold convs
'''
CELL = '''
preds = model(voxels, num_points, indice_pairs)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "same dtype")
CULPRITS = ["model.pts_middle_encoder"]
FIX = "namespace"
REFERENCE_FIX = '''
model.pts_middle_encoder.half()
'''
REFERENCE_EDIT = None
CLEAN = False
