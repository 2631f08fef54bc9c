"""torchvision `gaussian_blur` with a learnable CUDA `sigma` tensor: the kernel's `linspace` grid is built on the CPU.

Source: https://github.com/pytorch/vision/issues/8401
The user blurs attention maps with `gaussian_blur(x, k, [s])` where `s` is a CUDA tensor (a parameter).
On the CPU it works; on CUDA it fails because `_get_gaussian_kernel1d` builds
`x = torch.linspace(-ksize_half, ksize_half, steps=kernel_size)` on the CPU and divides it by the CUDA
`sigma` ("x is not moved to the device that sigma is on"). Fix: create the grid on sigma's device.
Stand-in: torchvision's `_get_gaussian_kernel1d/2d` and the tensor `gaussian_blur` (conv2d with
reflect padding); run without autograd here.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F

def _get_gaussian_kernel1d(kernel_size, sigma, dtype, device):
    ksize_half = (kernel_size - 1) * 0.5
    x = torch.linspace(-ksize_half, ksize_half, steps=kernel_size)
    pdf = torch.exp(-0.5 * (x / sigma).pow(2))
    return (pdf / pdf.sum()).to(device=device, dtype=dtype)

def _get_gaussian_kernel2d(kernel_size, sigma, dtype, device):
    kernel1d_x = _get_gaussian_kernel1d(kernel_size[0], sigma[0], dtype, device)[:, None]
    kernel1d_y = _get_gaussian_kernel1d(kernel_size[1], sigma[1], dtype, device)[None, :]
    return kernel1d_y * kernel1d_x

def gaussian_blur(img, kernel_size, sigma):
    if isinstance(kernel_size, int):
        kernel_size = [kernel_size, kernel_size]
    if len(sigma) == 1:
        sigma = [sigma[0], sigma[0]]
    kernel = _get_gaussian_kernel2d(kernel_size, sigma, dtype=img.dtype, device=img.device)
    kernel = kernel.expand(img.shape[-3], 1, kernel.shape[0], kernel.shape[1])
    padding = [kernel_size[0] // 2, kernel_size[0] // 2, kernel_size[1] // 2, kernel_size[1] // 2]
    img = F.pad(img, padding, mode="reflect")
    return F.conv2d(img, kernel, groups=img.shape[-3])

k = 15
s = torch.tensor(0.3 * ((5 - 1) * 0.5 - 1) + 0.8, device='cuda:0')
attn = torch.randn(1, 3, 256, 256, device='cuda:0')
'''
CELL = '''
blurred = gaussian_blur(attn, k, [s])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["s"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x = torch.linspace(-ksize_half, ksize_half, steps=kernel_size)",
                  "x = torch.linspace(-ksize_half, ksize_half, steps=kernel_size, device=sigma.device)")
CLEAN = False
