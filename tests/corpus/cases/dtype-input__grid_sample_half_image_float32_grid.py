"""`grid_sample` with a float16 image and a grid computed in float32.

Source: https://github.com/pytorch/pytorch/issues/94733
"grid_sample fails if 'input' and 'grid' have different types": the user kept images in float16
and computed the sampling grid in float32 (`affine_grid` math), and `F.grid_sample` raised
"expected scalar type Half but found Float". The maintainers kept the requirement (the issue is
an enhancement request); the working code casts the grid to the input's dtype (or both to
float32). The user reports it on CUDA; the dtype check is the same on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F

imgs = torch.randn(1, 3, 32, 32).to(torch.float16)          # images kept in half precision
theta = torch.tensor([[[0.9, 0.1, 0.0], [-0.1, 0.9, 0.0]]])
grid = F.affine_grid(theta, size=(1, 3, 16, 16), align_corners=False)   # float32 grid
'''
CELL = '''
out = F.grid_sample(imgs, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
'''
EXPECT_ERROR = "expected scalar type Half but found Float"
CULPRITS = ["grid"]
FIX = "namespace"
REFERENCE_FIX = '''
grid = grid.to(imgs.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
