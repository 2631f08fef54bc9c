"""Look-alike: kornia `RgbToGrayscale(rgb_weights=<CPU tensor>)` moved to cuda:0 and applied to a CUDA batch.

Source: https://github.com/kornia/kornia/blob/main/kornia/color/gray.py
`RgbToGrayscale` keeps `rgb_weights` as a plain tensor attribute (not a parameter or buffer), so
`module.to("cuda:0")` leaves it on the CPU -- the classic shape of a device bug. But `rgb_to_grayscale`
moves it itself: `rgb_weights = rgb_weights.to(image)` ("is tensor that we make sure is in the same
device/dtype"), so the conversion runs on the image's device. Nothing to report.
Stand-in: `rgb_to_grayscale` and `RgbToGrayscale` as in kornia (the channel split written with `split`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def rgb_to_grayscale(image, rgb_weights=None):
    if len(image.shape) < 3 or image.shape[-3] != 3:
        raise ValueError(f"Input size must have a shape of (*, 3, H, W). Got {image.shape}")
    if rgb_weights is None:
        if image.dtype == torch.uint8:
            rgb_weights = torch.tensor([76, 150, 29], device=image.device, dtype=torch.uint8)
        elif image.dtype in (torch.float16, torch.float32, torch.float64):
            rgb_weights = torch.tensor([0.299, 0.587, 0.114], device=image.device, dtype=image.dtype)
        else:
            raise TypeError(f"Unknown data type: {image.dtype}")
    else:
        # is tensor that we make sure is in the same device/dtype
        rgb_weights = rgb_weights.to(image)
    r, g, b = image.split(1, dim=-3)
    w_r, w_g, w_b = rgb_weights.unbind()
    return w_r * r + w_g * g + w_b * b

class RgbToGrayscale(nn.Module):
    def __init__(self, rgb_weights=None):
        super().__init__()
        self.rgb_weights = rgb_weights

    def forward(self, image):
        return rgb_to_grayscale(image, rgb_weights=self.rgb_weights)

to_gray = RgbToGrayscale(rgb_weights=torch.tensor([0.2126, 0.7152, 0.0722])).to("cuda:0")   # BT.709 luma
images = torch.rand(8, 3, 64, 64, device="cuda:0")
'''
CELL = '''
gray = to_gray(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
