"""VoxelMorph (PyTorch) `SpatialTransformer`: the identity grid is built on the CPU in `__init__` but registered as a buffer, so `model.to(device)` moves it.

Source: https://github.com/voxelmorph/voxelmorph/blob/dev/voxelmorph/torch/layers.py
`SpatialTransformer.__init__` builds `grid` from `torch.arange`/`torch.meshgrid` on the CPU, casts it
with `grid.type(torch.FloatTensor)` and calls `self.register_buffer('grid', grid)` (the comment there:
"registering the grid as a buffer cleanly moves it to the GPU"); `forward` adds the GPU flow field to
`self.grid`. Look-alike: a CPU-built tensor and an explicit `torch.FloatTensor` cast inside a module
used on the GPU, made safe by `register_buffer`; after `VxmDense(...).to(device)` it runs.
Stand-ins: a reduced `VxmDense` (two-conv "U-Net" + flow conv + `SpatialTransformer`); in
`SpatialTransformer.forward` the per-axis `new_locs[:, i, ...] = ...` normalisation is written as one
broadcast expression and `new_locs[..., [2, 1, 0]]` as `torch.flip(new_locs, dims=[-1])`, the same
values, because the CPU simulation cannot index fake cuda tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as nnf
from torch import nn


class SpatialTransformer(nn.Module):
    """
    N-D Spatial Transformer
    """

    def __init__(self, size, mode='bilinear'):
        super().__init__()

        self.mode = mode

        # create sampling grid
        vectors = [torch.arange(0, s) for s in size]
        grids = torch.meshgrid(vectors, indexing='ij')
        grid = torch.stack(grids)
        grid = torch.unsqueeze(grid, 0)
        grid = grid.type(torch.FloatTensor)

        # registering the grid as a buffer cleanly moves it to the GPU
        self.register_buffer('grid', grid)

    def forward(self, src, flow):
        # new locations
        new_locs = self.grid + flow
        shape = flow.shape[2:]

        # need to normalize grid values to [-1, 1] for resampler
        scale = torch.tensor([s - 1 for s in shape], dtype=new_locs.dtype, device=new_locs.device)
        new_locs = 2 * (new_locs / scale.view(1, -1, *([1] * len(shape))) - 0.5)

        # move channels dim to last position, reverse the channels
        new_locs = new_locs.permute(0, 2, 3, 4, 1)
        new_locs = torch.flip(new_locs, dims=[-1])

        return nnf.grid_sample(src, new_locs, align_corners=True, mode=self.mode)


class VxmDense(nn.Module):
    def __init__(self, inshape, nb_features=16):
        super().__init__()
        self.unet_model = nn.Sequential(nn.Conv3d(2, nb_features, 3, padding=1), nn.LeakyReLU(0.2),
                                        nn.Conv3d(nb_features, nb_features, 3, padding=1), nn.LeakyReLU(0.2))
        self.flow = nn.Conv3d(nb_features, len(inshape), kernel_size=3, padding=1)
        self.transformer = SpatialTransformer(inshape)

    def forward(self, source, target):
        x = torch.cat([source, target], dim=1)
        x = self.unet_model(x)
        pos_flow = self.flow(x)
        y_source = self.transformer(source, pos_flow)
        return y_source, pos_flow


device = torch.device('cuda:0')
inshape = (32, 32, 32)
model = VxmDense(inshape)
model.to(device)
model.eval()
moving = torch.rand(1, 1, *inshape)
fixed = torch.rand(1, 1, *inshape)
'''
CELL = '''
inputs = [moving.to(device).float(), fixed.to(device).float()]
with torch.no_grad():
    moved, warp = model(*inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
