"""YOLOv3 (Darknet) weights converted to half, video frames fed as float32.

Source: https://github.com/ayooshkathuria/pytorch-yolo-v3/issues/7
"RuntimeError: Input type (CUDAFloatTensor) and weight type (CUDAHalfTensor) should be the same"
in the video demo: the network was in half precision (the repo's half-precision demo path), the
frame tensor from the preprocessing was float32. Darknet's convolutions have no bias (batch norm
follows), so the check names the weight. Stand-in: two conv-BN-LeakyReLU blocks.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.LeakyReLU(0.1),
    )

darknet = nn.Sequential(conv_block(3, 16), conv_block(16, 32)).half().eval()
frame = torch.rand(1, 3, 96, 96)
'''
CELL = '''
with torch.no_grad():
    prediction = darknet(frame)
'''
EXPECT_ERROR = "Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be the same"
CULPRITS = ["frame"]
FIX = "namespace"
REFERENCE_FIX = '''
frame = frame.half()
'''
REFERENCE_EDIT = None
CLEAN = False
