"""kornia `RandomPlanckianJitter` applied to a cuda batch: its Planckian coefficient table is a CPU buffer.

Source: https://github.com/kornia/kornia/issues/1921
`aug = RandomPlanckianJitter(mode='blackbody'); aug(torch.randn(1, 3, 2, 2).cuda())` raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" at
`r = input[..., 0, :, :] * r_w`: the coefficients come from the `pl` buffer the augmentation
registers in `__init__`, and the module was never moved. Moving the module (`aug.to(device)`) is the
usual answer for kornia augmentations; kornia later also moved `pl` to the input's device inside
`apply_transform`. Stand-in: the augmentation reduced to its buffer, parameter sampling on the
buffer's device and `apply_transform` (channel picks written with `select`, coefficient lookup with
`index_select`: the simulator cannot index fake cuda tensors with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def get_planckian_coeffs(mode):
    if mode == "blackbody":
        return torch.tensor([[0.6743, 1.6732], [0.7435, 1.3733], [0.8025, 1.1897],
                             [0.8564, 1.0635], [0.9069, 0.9686], [1.0000, 0.8461],
                             [1.0588, 0.7786], [1.1143, 0.7257]])
    raise ValueError(mode)

class RandomPlanckianJitter(nn.Module):
    def __init__(self, mode="blackbody", p=1.0):
        super().__init__()
        self.p = p
        self.register_buffer("pl", get_planckian_coeffs(mode))

    def generate_parameters(self, batch_shape):
        # parameters are sampled on the device of the module's own tensors
        idx = torch.randint(0, self.pl.shape[0], (batch_shape[0],), device=self.pl.device)
        return {"idx": idx}

    def apply_transform(self, input, params):
        coeffs = self.pl.index_select(0, params["idx"])
        r_w = coeffs.select(1, 0).view(-1, 1, 1)
        b_w = coeffs.select(1, 1).view(-1, 1, 1)
        r = input.select(-3, 0) * r_w
        g = input.select(-3, 1)
        b = input.select(-3, 2) * b_w
        return torch.stack([r, g, b], -3).clamp(max=1.0)

    def forward(self, input):
        return self.apply_transform(input, self.generate_parameters(input.shape))

aug = RandomPlanckianJitter(mode="blackbody")
images = torch.rand(4, 3, 16, 16).to('cuda:0')
'''
CELL = '''
out = aug(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug"]
FIX = "namespace"
REFERENCE_FIX = '''
aug = aug.to(images.device)
'''
REFERENCE_EDIT = None
CLEAN = False
