"""torchstain (torch backend): `rgb2lab` on a CUDA image multiplies by module-level CPU conversion constants.

Source: https://github.com/EIDOSLAB/torchstain/pull/71
Stain-normalizing histology tiles on the GPU, `rgb2lab()` / `lab2rgb()` in
`torchstain/torch/utils/` failed with "Expected all tensors to be on the same device": the colour-space
constants `_rgb2xyz`, `_white`, `_xyz2rgb` are module-level tensors created on the CPU, while the
input tile is on CUDA. The PR moves the constants to the input's device inside both functions.
Stand-in: torchstain's rgb2lab (sRGB linearisation, XYZ matmul, Lab transfer), called by a small
Reinhard-style normalizer's `normalize`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

_rgb2xyz = torch.tensor([[0.412453, 0.357580, 0.180423],
                         [0.212671, 0.715160, 0.072169],
                         [0.019334, 0.119193, 0.950227]])
_white = torch.tensor([0.95047, 1., 1.08883])

def rgb2lab(rgb):
    rgb2xyz, white = _rgb2xyz, _white
    arr = rgb.type(torch.float32)
    mask = arr > 0.04045
    arr = torch.where(mask, torch.pow((arr + 0.055) / 1.055, 2.4), arr / 12.92)
    xyz = torch.tensordot(torch.t(rgb2xyz), arr, dims=([0], [0]))
    arr = torch.mul(xyz.permute(1, 2, 0), 1 / white).permute(2, 0, 1)
    mask = arr > 0.008856
    arr = torch.where(mask, torch.pow(arr, 1 / 3), 7.787 * arr + 16 / 116)
    x, y, z = arr.chunk(3, dim=0)
    L = (116. * y) - 16.
    a = 500.0 * (x - y)
    b = 200.0 * (y - z)
    return torch.cat([L, a, b], dim=0)

class TorchReinhardNormalizer:
    def __init__(self):
        self.target_means = None

    def normalize(self, I):
        I = I.float() / 255.0
        lab = rgb2lab(I)
        means = lab.mean(dim=(1, 2), keepdim=True)
        stds = lab.std(dim=(1, 2), keepdim=True)
        return (lab - means) / stds

normalizer = TorchReinhardNormalizer()
tile = torch.randint(0, 256, (3, 64, 64), dtype=torch.uint8).to("cuda:0")
'''
CELL = '''
norm = normalizer.normalize(I=tile)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rgb2lab"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("rgb2xyz, white = _rgb2xyz, _white",
                  "rgb2xyz, white = _rgb2xyz.to(rgb.device), _white.to(rgb.device)")
CLEAN = False
