"""Look-alike: a deliberately half-precision detector fed half-precision frames on the GPU.

Source: https://github.com/ayooshkathuria/pytorch-yolo-v3/issues/7
The maintainer pointed the reporter to the repo's half-precision demo, which converts both the
network and each frame with .half(). float16 everywhere, one device: nothing to report (and no
"should be float32" advice either).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(c_out), nn.LeakyReLU(0.1))

darknet = nn.Sequential(conv_block(3, 16), conv_block(16, 32)).to("cuda:0").half().eval()
frame = torch.rand(1, 3, 96, 96).to("cuda:0").half()
'''
CELL = '''
prediction = darknet(frame)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
