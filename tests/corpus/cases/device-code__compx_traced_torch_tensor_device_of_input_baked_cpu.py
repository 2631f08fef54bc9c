"""A traced function that builds `torch.tensor((1.,), device=a.device)`: traced on the CPU, called with a CUDA tensor.

Source: https://github.com/pytorch/pytorch/issues/31141
`def x(a): b = torch.tensor((1.,), device=a.device); return a + b`, traced with
`y = torch.jit.trace(x, torch.randn(1))` and called as `y(torch.tensor((2.,), device='cuda'))`,
fails ("expected device cuda:0 but got device cpu"): the saved code shows
`torch.to(CONSTANTS.c0, torch.device("cpu"), ...)` — the device is a literal of the trace. The
same happens with `torch.tensor((1.,)).to(device=a.device)`. Fix: script that function.
Stand-in: the traced function written as the code the trace saved.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class TracedX(torch.nn.Module):          # y = torch.jit.trace(x, torch.randn(1)); what y.save(...) shows
    def forward(self, a):
        b = torch.tensor((1.,), device=torch.device("cpu"))
        return torch.add(a, b, alpha=1)

y = TracedX()
'''
CELL = '''
z = y(torch.tensor((2.,), device='cuda:0'))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected device")
CULPRITS = ["y"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('b = torch.tensor((1.,), device=torch.device("cpu"))',
                  'b = torch.tensor((1.,), device=a.device)')
CLEAN = False
