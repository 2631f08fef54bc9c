"""kornia RandomJPEG on a CUDA image: the sampled JPEG quality comes from a CPU random generator.

Source: https://github.com/kornia/kornia/issues/2867
`aug = RandomJPEG(jpeg_quality=(1.0, 50.0), p=1.0).to(device)` applied to a CUDA image failed with
"Expected all tensors to be on the same device": `.to(device)` moves no state of the augmentation's
parameter generator, which keeps sampling `jpeg_quality` on the CPU. The maintainer's answer (PR
#2883 review): point the generator at the device with
`aug.set_rng_device_and_dtype(device=torch.device(device), dtype=torch.float32)`.
Stand-in: RandomJPEG with its parameter generator and a quantization step on the input's device.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class JPEGGenerator:
    def __init__(self, jpeg_quality):
        self.jpeg_quality = jpeg_quality
        self.device, self.dtype = torch.device("cpu"), torch.float32
    def set_rng_device_and_dtype(self, device, dtype):
        self.device, self.dtype = device, dtype
    def __call__(self, batch_shape):
        lo, hi = self.jpeg_quality
        q = lo + (hi - lo) * torch.rand(batch_shape[0], device=self.device, dtype=self.dtype)
        return {"jpeg_quality": q}

def jpeg_codec_differentiable(image, jpeg_quality):
    base = torch.full((8, 8), 16.0, device=image.device, dtype=image.dtype)
    scale = torch.where(jpeg_quality < 50, 5000.0 / jpeg_quality, 200.0 - 2.0 * jpeg_quality) / 100.0
    table = base[None] * scale[:, None, None]
    b, c, h, w = image.shape
    blocks = image.reshape(b, c, h // 8, 8, w // 8, 8) * 255.0
    q = torch.round(blocks / table[:, None, None, :, None, :]) * table[:, None, None, :, None, :]
    return (q / 255.0).reshape(b, c, h, w)

class RandomJPEG(nn.Module):
    """kornia.augmentation.RandomJPEG, reduced."""
    def __init__(self, jpeg_quality=50.0, p=1.0):
        super().__init__()
        self._param_generator = JPEGGenerator(jpeg_quality)
        self.p = p
    def set_rng_device_and_dtype(self, device, dtype):
        self._param_generator.set_rng_device_and_dtype(device, dtype)
    def forward(self, input):
        if input.dim() == 3:
            input = input[None]
        params = self._param_generator(input.shape)
        return jpeg_codec_differentiable(input, params["jpeg_quality"])

device = "cuda:0"
jpegq = (1.0, 50.0)
aug = RandomJPEG(jpeg_quality=jpegq, p=1.0).to(device)
example_input = torch.randn((3, 224, 224)).to(device)
'''
CELL = '''
res = aug(example_input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug"]
FIX = "namespace"
REFERENCE_FIX = '''
aug.set_rng_device_and_dtype(device=torch.device(device), dtype=torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
