"""kornia batched augmentation under `torch.autocast` with 0 < p < 1: index_put of a Half result into a Float output.

Source: https://github.com/kornia/kornia/issues/1737
`aug = K.augmentation.RandomGaussianBlur((3,3), (0.1, 3), p=0.5)` applied to a float32 batch inside
`with torch.autocast("cuda", dtype=torch.half)` raised "Index put requires the source and destination
dtypes match, got Float for the destination and Half for the source." -- but not with p=0.0 or p=1.0.
With 0 < p < 1, `apply_func` clones the float32 input and writes the transformed subset back with
`output[to_apply] = self.apply_transform(in_tensor[to_apply], ...)`; under autocast the blur's conv2d
returns float16. The maintainers' fix (PR #2168, "Fix output types of augmentations on autocast
regions"): convert the transformed result back to the input's dtype before the index_put.
Stand-in: a reduced `RandomGaussianBlur` with kornia's `apply_func` branching; run on the CPU, where
autocast(float16) also makes conv2d return float16 (the user ran cuda autocast).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class RandomGaussianBlur(nn.Module):
    def __init__(self, kernel_size, sigma, p=0.5):
        super().__init__()
        self.kernel_size, self.sigma, self.p = kernel_size, sigma, p

    def forward_parameters(self, batch_shape):
        b = batch_shape[0]
        batch_prob = torch.tensor([i % 2 == 0 for i in range(b)])   # Bernoulli(p) draw, fixed here
        sigma = torch.empty(b).uniform_(*self.sigma)
        return {"batch_prob": batch_prob, "sigma": sigma}

    def apply_transform(self, input, params):
        k = self.kernel_size[0]
        x = torch.arange(k, dtype=input.dtype) - k // 2
        sigma = params["sigma"][params["batch_prob"]].view(-1, 1)
        g = torch.exp(-x.pow(2) / (2 * sigma.pow(2)))
        g = g / g.sum(-1, keepdim=True)
        kernel = (g[:, :, None] * g[:, None, :])           # (B', k, k)
        b, c, h, w = input.shape
        kernel = kernel.repeat_interleave(c, 0)[:, None]   # (B'*C, 1, k, k)
        out = F.conv2d(input.reshape(1, b * c, h, w), kernel, padding=k // 2, groups=b * c)
        return out.reshape(b, c, h, w)

    def apply_func(self, in_tensor, params):
        to_apply = params["batch_prob"]
        if not to_apply.any():
            output = in_tensor
        elif to_apply.all():
            output = self.apply_transform(in_tensor, params)
        else:
            output = in_tensor.clone()
            output[to_apply] = self.apply_transform(in_tensor[to_apply], params)
        return output

    def forward(self, input):
        params = self.forward_parameters(input.shape)
        return self.apply_func(input, params)

aug = RandomGaussianBlur((3, 3), (0.1, 3.0), p=0.5)
x = torch.rand(2, 3, 48, 80)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.float16):
    out = aug(x)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["aug"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            output[to_apply] = self.apply_transform(in_tensor[to_apply], params)",
                  "            output[to_apply] = self.apply_transform(in_tensor[to_apply], params).type(in_tensor.dtype)")
CLEAN = False
