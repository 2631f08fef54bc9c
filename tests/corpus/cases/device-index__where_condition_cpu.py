"""torch.where with a condition computed on the CPU and values on the GPU.

Source: https://github.com/pytorch/pytorch/issues/33422
`torch.where(torch.rand(16, device="cpu") > 0.7, x, y)` with a cuda operand crashed (segfault)
before PyTorch checked devices; today it raises the same-device error. The condition (a mask)
must be on the device of the values.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

keep = torch.rand(16, device="cpu") > 0.7
scores = torch.rand(16).to("cuda:0")
fallback = torch.zeros(16).to("cuda:0")
'''
CELL = '''
out = torch.where(keep, scores, fallback)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["keep"]
FIX = "namespace"
REFERENCE_FIX = '''
keep = keep.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
