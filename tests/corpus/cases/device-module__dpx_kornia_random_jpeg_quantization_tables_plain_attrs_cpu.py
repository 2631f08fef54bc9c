"""kornia RandomJPEG rejects a CUDA batch: the JPEG codec's default quantization tables stay on the CPU.

Source: https://github.com/kornia/kornia/issues/3104
`aug2 = A.RandomJPEG([70, 95])` on `x = torch.randn(1, 3, 224, 224).to(device)` failed with
"Expected all tensors to be on the same device ... cuda:0 and cpu!" while RandomBrightness worked.
The codec holds its default luma/chroma quantization tables as plain tensors made on the CPU, which
neither the input nor `Module.to()` moves; the fix (PR #3149) moves the tables to the input's device
and dtype in the codec's forward. Stand-in: RandomJPEG with the sampled quality on the input's
device and a reduced differentiable JPEG codec (quantize/dequantize 8x8 blocks).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def _get_default_qt_y():
    return torch.full((8, 8), 16.0)

def _get_default_qt_c():
    return torch.full((8, 8), 17.0)

def _jpeg_quality_to_scale(q):
    return torch.where(q < 50, 5000.0 / q, 200.0 - 2.0 * q) / 100.0

class JPEGCodecDifferentiable(nn.Module):
    def __init__(self):
        super().__init__()
        self.quantization_table_y = _get_default_qt_y()
        self.quantization_table_c = _get_default_qt_c()

    def forward(self, image_rgb, jpeg_quality):
        qt_y = self.quantization_table_y
        qt_c = self.quantization_table_c
        scale = _jpeg_quality_to_scale(jpeg_quality)[:, None, None]
        qt_y = (qt_y[None] * scale).clamp(min=1.0)
        qt_c = (qt_c[None] * scale).clamp(min=1.0)
        b, c, h, w = image_rgb.shape
        blocks = image_rgb.reshape(b, c, h // 8, 8, w // 8, 8) * 255.0
        y = torch.round(blocks[:, :1] / qt_y[:, None, None, :, None, :]) * qt_y[:, None, None, :, None, :]
        cc = torch.round(blocks[:, 1:] / qt_c[:, None, None, :, None, :]) * qt_c[:, None, None, :, None, :]
        return (torch.cat([y, cc], 1) / 255.0).reshape(b, c, h, w)

class RandomBrightness(nn.Module):
    def __init__(self, brightness):
        super().__init__()
        self.brightness = brightness
    def forward(self, x):
        lo, hi = self.brightness
        return x * (lo + (hi - lo) * torch.rand(x.shape[0], 1, 1, 1, device=x.device))

class RandomJPEG(nn.Module):
    def __init__(self, jpeg_quality=50.0, p=1.0):
        super().__init__()
        self.jpeg_quality = jpeg_quality
        self.codec = JPEGCodecDifferentiable()
    def forward(self, input):
        lo, hi = self.jpeg_quality
        q = lo + (hi - lo) * torch.rand(input.shape[0], device=input.device)
        return self.codec(input, q)

device = torch.device("cuda:0")
aug1 = RandomBrightness([0.8, 1.2])
aug2 = RandomJPEG([70, 95])
x = torch.randn(1, 3, 224, 224).to(device)
res1 = aug1(x)
'''
CELL = '''
res2 = aug2(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug2"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        qt_y = self.quantization_table_y
        qt_c = self.quantization_table_c
""", """        qt_y = self.quantization_table_y.to(image_rgb.device, image_rgb.dtype)
        qt_c = self.quantization_table_c.to(image_rgb.device, image_rgb.dtype)
""")
CLEAN = False
