"""kornia `jpeg_codec_differentiable` on a CUDA batch: the Gaussian kernel's `mean` is built on the CPU.

Source: https://github.com/kornia/kornia/issues/2837
`kornia.enhance.jpeg_codec_differentiable(input=a, jpeg_quality=torch.full([a.shape[0]], 15).to(a.device))`
with `a = torch.rand(4, 3, 112, 112).to('cuda:0')` raised "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". The chroma subsampling path resizes with an
anti-aliasing Gaussian blur whose `sigma` is a tensor on the input's device, but
`kornia.filters.kernels.gaussian` built the default `mean` with `tensor([[mean]], device=device, ...)`
where `device` was None, i.e. on the CPU. The reporter's fix (PR #2838): create `mean` on
`sigma.device` / `sigma.dtype`.
Stand-in: the call chain jpeg_codec_differentiable -> _chroma_subsampling -> rescale -> gaussian_blur2d
-> get_gaussian_kernel1d -> gaussian, reduced to the kernel construction (the JPEG coding itself dropped).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import tensor

def gaussian(window_size, sigma, *, mean=None, device=None, dtype=None):
    if isinstance(sigma, float):
        sigma = tensor([[sigma]], device=device, dtype=dtype)
    batch_size = sigma.shape[0]
    mean = float(window_size // 2) if mean is None else mean
    if isinstance(mean, float):
        mean = tensor([[mean]], device=device, dtype=dtype)
    x = (torch.arange(window_size, device=sigma.device, dtype=sigma.dtype) - mean).expand(batch_size, -1)
    if window_size % 2 == 0:
        x = x + 0.5
    gauss = torch.exp(-x.pow(2.0) / (2 * sigma.pow(2.0)))
    return gauss / gauss.sum(-1, keepdim=True)

def get_gaussian_kernel1d(kernel_size, sigma, force_even=False, *, device=None, dtype=None):
    return gaussian(kernel_size, sigma, device=device, dtype=dtype)

def gaussian_blur2d(input, kernel_size, sigma):
    ky, kx = kernel_size
    sigma_y, sigma_x = sigma.split(1, dim=1)
    kernel_y = get_gaussian_kernel1d(ky, sigma_y)[:, None, :, None]
    kernel_x = get_gaussian_kernel1d(kx, sigma_x)[:, None, None, :]
    b, c, h, w = input.shape
    out = F.conv2d(input.reshape(1, b * c, h, w), kernel_y.repeat_interleave(c, 0), groups=b * c, padding=(ky // 2, 0))
    out = F.conv2d(out, kernel_x.repeat_interleave(c, 0), groups=b * c, padding=(0, kx // 2))
    return out.reshape(b, c, h, w)

def rescale(input, factor, antialias=True):
    size = (int(input.shape[-2] * factor[0]), int(input.shape[-1] * factor[1]))
    if antialias:
        sigmas = torch.tensor([[(1.0 / factor[0] - 1.0) / 2.0, (1.0 / factor[1] - 1.0) / 2.0]],
                              device=input.device, dtype=input.dtype).clamp(min=0.001).repeat(input.shape[0], 1)
        input = gaussian_blur2d(input, (3, 3), sigmas)
    return F.interpolate(input, size=size, mode="bilinear", align_corners=False)

def _chroma_subsampling(input_ycbcr):
    y, cb, cr = input_ycbcr.split(1, dim=1)
    cb = rescale(cb, (0.5, 0.5))
    cr = rescale(cr, (0.5, 0.5))
    return y, cb, cr

def jpeg_codec_differentiable(image_rgb, jpeg_quality):
    # (RGB -> YCbCr conversion, DCT, quantization and decoding dropped in this stand-in)
    y, cb, cr = _chroma_subsampling(image_rgb)
    scale = (jpeg_quality / 100.0).view(-1, 1, 1, 1)
    return cb * scale

a = torch.rand(4, 3, 112, 112).to('cuda:0')
'''
CELL = '''
out = jpeg_codec_differentiable(a, jpeg_quality=torch.full([a.shape[0]], 15).to(a.device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gaussian"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        mean = tensor([[mean]], device=device, dtype=dtype)",
                  "        mean = tensor([[mean]], device=sigma.device, dtype=sigma.dtype)")
CLEAN = False
