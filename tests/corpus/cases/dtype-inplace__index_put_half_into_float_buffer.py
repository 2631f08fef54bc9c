"""Results of a half-precision model written into a float32 buffer with index assignment.

Source: https://github.com/continue-revolution/sd-webui-animatediff/issues/168
"RuntimeError: Index put requires the source and destination dtypes match, got Float for the
destination and Half for the source." The extension collected the fp16 UNet's outputs for each
context window into a float32 accumulator with `x_out[idx] = ...`; advanced-index assignment does
not cast. Stand-in: a half model and a float buffer filled window by window.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

unet = nn.Sequential(nn.Linear(8, 8), nn.SiLU(), nn.Linear(8, 8)).half()
x_in = torch.randn(16, 8, dtype=torch.float16)
x_out = torch.zeros(16, 8)
context_windows = [torch.arange(0, 8), torch.arange(8, 16)]
'''
CELL = '''
with torch.no_grad():
    for idx in context_windows:
        x_out[idx] = unet(x_in[idx])
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["x_out"]
FIX = "namespace"
REFERENCE_FIX = '''
x_out = x_out.half()
'''
REFERENCE_EDIT = None
CLEAN = False
