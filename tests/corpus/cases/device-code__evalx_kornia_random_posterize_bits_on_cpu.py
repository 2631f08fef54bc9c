"""kornia `RandomPosterize(bits=6, p=1.0).to('cuda:0')` on a CUDA batch: the sampled `bits` stay on the CPU.

Source: https://github.com/kornia/kornia/issues/1528
"On CPU works; on GPU fails": even after moving the augmentation to cuda:0, `posterize` computes
`(input * 255).to(torch.uint8) / (2 ** shift).to(input.dtype) / 255.0` with `shift` derived from the
per-sample `bits` that the parameter generator samples on the CPU (kornia generates augmentation
parameters on the CPU by design), so the division mixes cuda:0 and cpu. The reporter's fix, adopted
upstream: move `bits` to `input.device` inside `posterize`.
Stand-in: the parameter generator, `posterize` and the augmentation module, as in kornia 0.6.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _right_shift(input, shift):
    return ((input * 255).to(torch.uint8) / (2 ** shift).to(input.dtype) / 255.0)

def _left_shift(input, shift):
    return ((input * 255).to(torch.uint8) * (2 ** shift).to(input.dtype)) / 255.0

def posterize(input, bits):
    bits = bits.view(-1, *([1] * (input.dim() - 1)))
    shift = 8 - bits
    return _left_shift(_right_shift(input, shift), shift)

class RandomPosterize(nn.Module):
    def __init__(self, bits=3, p=0.5):
        super().__init__()
        self.bits, self.p = bits, p

    def generate_parameters(self, batch_shape):
        # kornia samples parameters on the CPU (set_rng_device_and_dtype(cpu, float32))
        return {"bits_factor": torch.full((batch_shape[0],), self.bits, dtype=torch.int32)}

    def forward(self, input):
        params = self.generate_parameters(input.shape)
        return posterize(input, params["bits_factor"])

transform = RandomPosterize(bits=6, p=1.0).to('cuda:0')
input = torch.rand(1, 3, 128, 128, device='cuda:0', dtype=torch.float32)
'''
CELL = '''
out = transform(input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["transform"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    bits = bits.view(-1, *([1] * (input.dim() - 1)))",
                  "    bits = bits.to(input.device).view(-1, *([1] * (input.dim() - 1)))")
CLEAN = False
