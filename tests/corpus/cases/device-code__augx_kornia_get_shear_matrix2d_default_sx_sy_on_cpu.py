"""kornia `get_shear_matrix2d(center)` with a CUDA `center`: the default `sx`/`sy` are made on the CPU.

Source: https://github.com/kornia/kornia/issues/3562
The reporter called `get_shear_matrix2d(center)` with `center = torch.tensor([[0., 0.]], device='cuda')`
and no `sx`/`sy`, and got a device mismatch: in `kornia/geometry/transform/imgwarp.py` the defaults are
`sx = torch.tensor([0.0]).repeat(center.size(0)) if sx is None else sx` (same for `sy`), and
`torch.tensor([0.0])` always lands on the CPU whatever `center`'s device, so the later products with
the CUDA `x`/`y` coordinates mix devices. The fix the report gives: create the defaults on `center`'s
device (and dtype).
Stand-in: `get_shear_matrix2d` and `convert_affinematrix_to_homography` as in kornia's imgwarp.py.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def convert_affinematrix_to_homography(A):
    # kornia pads a zero row and sets H[..., -1, -1] = 1; same result without indexing
    last_row = torch.tensor([[[0.0, 0.0, 1.0]]], device=A.device, dtype=A.dtype).expand(A.shape[0], 1, 3)
    return torch.cat([A, last_row], dim=-2)

def get_shear_matrix2d(center, sx=None, sy=None):
    sx = torch.tensor([0.0]).repeat(center.size(0)) if sx is None else sx
    sy = torch.tensor([0.0]).repeat(center.size(0)) if sy is None else sy

    x, y = torch.split(center, 1, dim=-1)
    x, y = x.view(-1), y.view(-1)

    sx_tan = torch.tan(sx)
    sy_tan = torch.tan(sy)
    ones = torch.ones_like(sx)
    shear_mat = torch.stack(
        [ones, -sx_tan, sx_tan * y, -sy_tan, ones + sx_tan * sy_tan, sy_tan * (sx_tan * y + x)], dim=-1
    ).view(-1, 2, 3)
    return convert_affinematrix_to_homography(shear_mat)

center = torch.tensor([[0., 0.]], device='cuda:0')
'''
CELL = '''
shear_matrix = get_shear_matrix2d(center)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_shear_matrix2d"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    sx = torch.tensor([0.0]).repeat(center.size(0)) if sx is None else sx\n"
    "    sy = torch.tensor([0.0]).repeat(center.size(0)) if sy is None else sy\n",
    "    sx = torch.zeros(center.size(0), device=center.device, dtype=center.dtype) if sx is None else sx\n"
    "    sy = torch.zeros(center.size(0), device=center.device, dtype=center.dtype) if sy is None else sy\n",
)
CLEAN = False
