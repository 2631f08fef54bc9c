"""WarpConvNet `sparse_reduce` today: float64 voxel features pooled where some output voxels get no input; the zero fill is made with `dtype=voxels.dtype`.

Source: https://github.com/NVlabs/WarpConvNet/blob/main/warpconvnet/nn/functional/sparse_pool.py
When an output coordinate has no input in its window, `sparse_reduce` warns and builds
`new_out_features = torch.zeros(batch_indexed_out_coords.shape[0], in_features.shape[1],
device=voxels.device, dtype=voxels.dtype)` before `new_out_features[unique_out_maps] =
out_features`, so float64 point features stay float64 through the index put, and the output
offsets are moved to the CPU on purpose (`output_offsets.cpu()`). Look-alike: non-default float
dtype, an index put into a freshly made zeros tensor inside a library helper; it runs.
Stand-ins: `Voxels` (batched integer coordinates + features), `stride_coords`, the kernel map and
`row_reduction` (max via `scatter_reduce`), `sparse_reduce` and `sparse_max_pool` as in the file.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import warnings
import torch

class Voxels:
    """Stand-in for warpconvnet.geometry.types.voxels.Voxels."""
    def __init__(self, coords, feats, offsets, stride=None):
        self.coordinate_tensor = coords          # (N, 3) int32 voxel indices
        self.feature_tensor = feats              # (N, C)
        self.offsets = offsets                   # (B + 1,) cpu
        self.stride = stride

    @property
    def num_spatial_dims(self):
        return self.coordinate_tensor.shape[1]

    @property
    def batch_indexed_coordinates(self):
        counts = self.offsets[1:] - self.offsets[:-1]
        bidx = torch.repeat_interleave(torch.arange(len(counts)), counts).to(self.coordinate_tensor)
        return torch.cat([bidx[:, None], self.coordinate_tensor], dim=1)

    @property
    def device(self):
        return self.feature_tensor.device

    @property
    def dtype(self):
        return self.feature_tensor.dtype

    def replace(self, batched_coordinates, batched_features, stride):
        coords, offsets = batched_coordinates
        return Voxels(coords, batched_features, offsets, stride)

def stride_coords(batch_indexed_coords, stride):
    out = batch_indexed_coords.clone()
    out[:, 1:] = torch.div(out[:, 1:], torch.tensor(stride, dtype=out.dtype), rounding_mode="floor")
    out_coords, inverse = torch.unique(out, dim=0, return_inverse=True)
    counts = torch.bincount(out_coords[:, 0].long())
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), counts.cumsum(0)])
    return out_coords, offsets, inverse

def generate_kernel_map(in_coords, inverse, stride, kernel_size):
    """in -> out maps: an input feeds its output voxel if it lies inside the pooling window."""
    rel = in_coords[:, 1:] % torch.tensor(stride, dtype=in_coords.dtype)
    inside = (rel < torch.tensor(kernel_size, dtype=in_coords.dtype)).all(dim=1)
    in_maps = torch.nonzero(inside).flatten()
    return in_maps, inverse[in_maps]

def row_reduction(feats, out_idx, num_rows, reduction="max"):
    out = feats.new_zeros(num_rows, feats.shape[1])
    return out.scatter_reduce(0, out_idx[:, None].expand_as(feats), feats, reduce="amax",
                              include_self=False)

def sparse_reduce(voxels, kernel_size, stride=None, reduction="max"):
    """Max pooling for spatially sparse tensors (WarpConvNet sparse_pool.py, current)."""
    if stride is None:
        stride = kernel_size
    ndim = voxels.num_spatial_dims
    stride = (stride,) * ndim if isinstance(stride, int) else tuple(stride)
    kernel_size = (kernel_size,) * ndim if isinstance(kernel_size, int) else tuple(kernel_size)
    in_tensor_stride = voxels.stride or (1,) * ndim
    out_tensor_stride = tuple(o * s for o, s in zip(stride, in_tensor_stride))

    batch_indexed_in_coords = voxels.batch_indexed_coordinates
    batch_indexed_out_coords, output_offsets, inverse = stride_coords(batch_indexed_in_coords, stride)
    in_maps, out_maps = generate_kernel_map(batch_indexed_in_coords, inverse, stride, kernel_size)
    unique_out_maps, out_rows = torch.unique(out_maps, return_inverse=True)
    in_features = voxels.feature_tensor
    out_features = row_reduction(in_features[in_maps], out_rows, len(unique_out_maps), reduction)

    if len(unique_out_maps) != batch_indexed_out_coords.shape[0]:
        warnings.warn(
            f"Some output coordinates don't have any input maps. "
            f"{batch_indexed_out_coords.shape[0] - len(unique_out_maps)} output coordinates are missing.",
            stacklevel=2,
        )
        new_out_features = torch.zeros(
            batch_indexed_out_coords.shape[0],
            in_features.shape[1],
            device=voxels.device,
            dtype=voxels.dtype,
        )
        new_out_features[unique_out_maps] = out_features
        out_features = new_out_features

    return voxels.replace(
        batched_coordinates=(batch_indexed_out_coords[:, 1:], output_offsets.cpu()),
        batched_features=out_features,
        stride=out_tensor_stride,
    )

def sparse_max_pool(voxels, kernel_size, stride=None):
    return sparse_reduce(voxels, kernel_size, stride, reduction="max")

torch.manual_seed(0)
coords = torch.unique(torch.randint(0, 16, (300, 3), dtype=torch.int32), dim=0)
n0 = coords.shape[0] // 2
feats = torch.randn(coords.shape[0], 8, dtype=torch.float64)      # float64 point features
voxels = Voxels(coords, feats, torch.tensor([0, n0, coords.shape[0]]))
'''
CELL = '''
pooled = sparse_max_pool(voxels, kernel_size=1, stride=2)
out_feats = pooled.feature_tensor
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
