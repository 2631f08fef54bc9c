"""Look-alike: a DSNT coordinate-regression pose head builds its coordinate grid inside forward, on the heatmaps' device.

Source: https://github.com/anibali/dsntnn/blob/master/dsntnn/__init__.py
dsntnn's `dsnt`/`soft_argmax` creates the normalized x/y coordinate vectors on every call with
`normalized_linspace(d, dtype=heatmaps.dtype, device=heatmaps.device)`: a tensor made inside the
forward pass, but with the device (and dtype) of the heatmaps, so a model moved to the GPU works.
The README's `CoordRegressionNetwork` (fully convolutional backbone, 1x1 conv to one heatmap per
location, `flat_softmax`, `dsnt`) is used as in its example, with the input moved by the user.
Stand-in: dsntnn's functions as in the file; a small conv backbone for the ResNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from functools import reduce
from operator import mul
import torch
from torch import nn

def linear_expectation(probs, values):
    assert(len(values) == probs.ndimension() - 2)
    expectation = []
    for i in range(2, probs.ndimension()):
        # Marginalise probabilities
        marg = probs
        for j in range(probs.ndimension() - 1, 1, -1):
            if i != j:
                marg = marg.sum(j, keepdim=False)
        # Calculate expectation along axis `i`
        expectation.append((marg * values[len(expectation)]).sum(-1, keepdim=False))
    return torch.stack(expectation, -1)

def normalized_linspace(length, dtype=None, device=None):
    if isinstance(length, torch.Tensor):
        length = length.to(device, dtype)
    first = -(length - 1.0) / length
    return torch.arange(length, dtype=dtype, device=device) * (2.0 / length) + first

def soft_argmax(heatmaps, normalized_coordinates=True):
    if normalized_coordinates:
        values = [normalized_linspace(d, dtype=heatmaps.dtype, device=heatmaps.device)
                  for d in heatmaps.size()[2:]]
    else:
        values = [torch.arange(0, d, dtype=heatmaps.dtype, device=heatmaps.device)
                  for d in heatmaps.size()[2:]]
    coords = linear_expectation(heatmaps, values)
    # We flip the tensor like this instead of using `coords.flip(-1)` because aten::flip is not yet
    # supported by the ONNX exporter.
    coords = torch.cat(tuple(reversed(coords.split(1, -1))), -1)
    return coords

def dsnt(heatmaps, **kwargs):
    return soft_argmax(heatmaps, **kwargs)

def flat_softmax(inp):
    orig_size = inp.size()
    flat = inp.view(-1, reduce(mul, orig_size[2:]))
    flat = torch.nn.functional.softmax(flat, -1)
    return flat.view(*orig_size)

class FCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.ReLU(), nn.BatchNorm2d(16),
            nn.Conv2d(16, 16, kernel_size=3, padding=1), nn.ReLU(), nn.BatchNorm2d(16),
            nn.Conv2d(16, 16, kernel_size=3, padding=1))

    def forward(self, x):
        return self.layers(x)

class CoordRegressionNetwork(nn.Module):
    def __init__(self, n_locations):
        super().__init__()
        self.fcn = FCN()
        self.hm_conv = nn.Conv2d(16, n_locations, kernel_size=1, bias=False)

    def forward(self, images):
        # 1. Run the images through our FCN
        fcn_out = self.fcn(images)
        # 2. Use a 1x1 conv to get one unnormalized heatmap per location
        unnormalized_heatmaps = self.hm_conv(fcn_out)
        # 3. Normalize the heatmaps
        heatmaps = flat_softmax(unnormalized_heatmaps)
        # 4. Calculate the coordinates
        coords = dsnt(heatmaps)
        return coords, heatmaps

model = CoordRegressionNetwork(n_locations=1).to("cuda:0")
model.eval()
input_tensor = torch.rand(1, 3, 40, 40)       # the raccoon face, HWC -> CHW, /255
'''
CELL = '''
input_var = input_tensor.to("cuda:0")
with torch.no_grad():
    coords, heatmaps = model(input_var)
print(coords.shape, coords.device, heatmaps.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
