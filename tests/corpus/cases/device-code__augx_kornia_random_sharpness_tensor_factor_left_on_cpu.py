"""kornia `RandomSharpness(...).to("cuda")` on a CUDA batch: `sharpness()` leaves a tensor `factor` on the CPU.

Source: https://github.com/kornia/kornia/pull/3830
The maintainer's report: `sharpness()` moved `factor` to the input's device only when it was a
non-tensor scalar (`if not isinstance(factor, torch.Tensor): factor = torch.as_tensor(factor,
device=input.device, dtype=input.dtype)`); a tensor factor was used as-is. Augmentation parameter
generators sample the factor on the RNG device (CPU by default), so `RandomSharpness(...).to("cuda")`
raised "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
at the final blend. Fix: add the tensor branch, `factor = factor.to(device=input.device, dtype=input.dtype)`.
Stand-in: `sharpness` (blend vectorised over the batch) and a reduced `RandomSharpness` whose parameter
generator samples on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def _blend_one(input1, input2, factor):
    degenerate = input1 + (input2 - input1) * factor
    return degenerate.clamp(0.0, 1.0)

def sharpness(image, factor):
    if not isinstance(factor, torch.Tensor):
        factor = torch.as_tensor(factor, device=image.device, dtype=image.dtype)
    kernel = (torch.tensor([[1, 1, 1], [1, 5, 1], [1, 1, 1]], dtype=image.dtype, device=image.device)
              .view(1, 1, 3, 3).repeat(image.size(1), 1, 1, 1) / 13)
    degenerate = F.conv2d(image, kernel, bias=None, stride=1, padding=1, groups=image.size(1))
    degenerate = torch.clamp(degenerate, 0.0, 1.0)
    return _blend_one(degenerate, image, factor.view(-1, 1, 1, 1))

class RandomSharpness(nn.Module):
    def __init__(self, sharpness=0.5, p=1.0):
        super().__init__()
        self.sharpness, self.p = sharpness, p

    def generate_parameters(self, batch_shape):
        # parameters are sampled on the RNG device: the CPU unless set_rng_device_and_dtype is called
        return {"sharpness": torch.empty(batch_shape[0]).uniform_(0.0, self.sharpness)}

    def forward(self, input):
        params = self.generate_parameters(input.shape)
        return sharpness(input, params["sharpness"])

aug = RandomSharpness(sharpness=0.5, p=1.0).to("cuda:0")
x = torch.rand(8, 3, 32, 32, device="cuda:0")
'''
CELL = '''
out = aug(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sharpness"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        factor = torch.as_tensor(factor, device=image.device, dtype=image.dtype)\n",
    "        factor = torch.as_tensor(factor, device=image.device, dtype=image.dtype)\n"
    "    else:\n"
    "        factor = factor.to(device=image.device, dtype=image.dtype)\n",
)
CLEAN = False
