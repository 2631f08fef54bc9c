"""mmcv `RoIAlign` (a C++/CUDA op behind an autograd.Function) under AMP: "expected scalar type Half but found Float".

Source: https://github.com/pytorch/pytorch/issues/47906
The user ran mmcv's `roi_align` under `torch.cuda.amp.autocast` and, following the AMP docs, added
bare `@custom_fwd` / `@custom_bwd` to `RoIAlignFunction`; the extension still raised "expected scalar
type Half but found Float": the features come out of autocast convs in half while the `rois` stay
float32, and the kernel needs one dtype. The maintainers' answer (AMP notes, also #38487): an
extension inside a custom Function needs `@custom_fwd(cast_inputs=torch.float32)` so its inputs are
cast to one dtype and autocast is off inside. Stand-ins: the extension's dtype check as a Python
function, a two-conv backbone; CPU autocast in bfloat16 plays CUDA autocast in float16.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Function
from torch.amp import custom_fwd, custom_bwd

def roi_align_forward(input, rois, output, spatial_scale):     # ext_module.roi_align_forward
    if rois.dtype != input.dtype:
        names = {torch.float16: "Half", torch.bfloat16: "BFloat16", torch.float32: "Float"}
        raise RuntimeError(f"expected scalar type {names[input.dtype]} but found {names[rois.dtype]}")
    n, c = rois.shape[0], input.shape[1]
    output.copy_(input.mean(dim=(2, 3))[rois[:, 0].long()].view(n, c, 1, 1).expand_as(output))

class RoIAlignFunction(Function):
    @staticmethod
    @custom_fwd(device_type="cpu")
    def forward(ctx, input, rois, output_size, spatial_scale=1.0):
        output = input.new_zeros((rois.size(0), input.size(1)) + tuple(output_size))
        roi_align_forward(input, rois, output, spatial_scale)
        return output

    @staticmethod
    @custom_bwd(device_type="cpu")
    def backward(ctx, grad_output):
        return None, None, None, None

class RoIAlign(nn.Module):
    def __init__(self, output_size, spatial_scale):
        super().__init__()
        self.output_size, self.spatial_scale = output_size, spatial_scale

    def forward(self, input, rois):
        return RoIAlignFunction.apply(input, rois, self.output_size, self.spatial_scale)

backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1))
roi_layer = RoIAlign((7, 7), 1 / 4)
img = torch.randn(2, 3, 64, 64)
rois = torch.tensor([[0, 4.0, 4.0, 40.0, 40.0], [1, 8.0, 8.0, 60.0, 30.0]])
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    feats = backbone(img)
    roi_feats = roi_layer(feats, rois)
'''
EXPECT_ERROR = "expected scalar type"
CULPRITS = ["roi_layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    @staticmethod
    @custom_fwd(device_type="cpu")
    def forward(ctx, input, rois, output_size, spatial_scale=1.0):''',
                  '''    @staticmethod
    @custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, input, rois, output_size, spatial_scale=1.0):''')
CLEAN = False
