"""Look-alike: kornia `RandomHorizontalFlip` on a CUDA batch keeps CPU `_params` but builds its flip matrix on the input's device.

Source: https://github.com/kornia/kornia/blob/main/kornia/augmentation/_2d/geometric/horizontal_flip.py
The augmentation's sampled parameters (`batch_prob`, `forward_input_shape`) are CPU tensors kept in
`aug._params`, and `compute_transformation` creates a brand-new tensor inside the forward pass -- both look
like device bugs. But the matrix is made with `tensor([[-1, 0, w - 1], [0, 1, 0], [0, 0, 1]],
device=input.device, dtype=input.dtype)`, the CPU parameters are only read for the width, and the user then
composes the returned CUDA `transform_matrix` with another CUDA matrix. Nothing to report.
Stand-in: `compute_transformation`/`apply_transform` as in kornia, the base class reduced to p=1 (the width
read from the input's shape instead of `int(forward_input_shape[-1])`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def hflip(input):
    return input.flip(-1)

class RandomHorizontalFlip(nn.Module):
    def __init__(self, p=1.0):
        super().__init__()
        self.p = p
        self._params = None
        self.transform_matrix = None

    def forward_parameters(self, batch_shape):
        return {"batch_prob": torch.ones(batch_shape[0], dtype=torch.bool),
                "forward_input_shape": torch.tensor(batch_shape, dtype=torch.long)}

    def compute_transformation(self, input, params, flags):
        w = input.shape[-1]
        flip_mat = torch.tensor([[-1, 0, w - 1], [0, 1, 0], [0, 0, 1]], device=input.device, dtype=input.dtype)
        return flip_mat.expand(input.shape[0], 3, 3)

    def apply_transform(self, input, params, flags, transform=None):
        return hflip(input)

    def forward(self, input):
        self._params = self.forward_parameters(input.shape)
        self.transform_matrix = self.compute_transformation(input, self._params, {})
        return self.apply_transform(input, self._params, {}, self.transform_matrix)

aug = RandomHorizontalFlip(p=1.0)
imgs = torch.rand(4, 3, 32, 48, device="cuda:0")
scale = torch.diag(torch.tensor([0.5, 0.5, 1.0])).to("cuda:0").expand(4, 3, 3)
'''
CELL = '''
out = aug(imgs)
total = scale @ aug.transform_matrix
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
