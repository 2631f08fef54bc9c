"""`scatter_` of an int64 source into a float32 zeros tensor.

Source: https://github.com/pytorch/pytorch/issues/39565
"torch.scatter_ returns incorrect result when running on CPU using int64 indexes": the user's `x`
was `torch.arange(1, 5, dtype=torch.int64).reshape(2, 2)` and
`torch.zeros(2, 2).scatter_(0, index, x)` returned garbage on the CPU (raised on CUDA). The cause
was the int64 `src` scattered into a float32 `self`; PyTorch then added the dtype check
(pytorch/pytorch#38025, #39684) and the call now raises "scatter(): Expected self.dtype to be
equal to src.dtype". The source must have the destination's dtype.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

device = "cpu"
x = torch.arange(1, 5, device=device, dtype=torch.int64).reshape(2, 2)
index = torch.tensor([[1, 0], [0, 0]], device=device)
'''
CELL = '''
out = torch.zeros(2, 2, device=device).scatter_(0, index, x)
'''
EXPECT_ERROR = "scatter(): Expected self.dtype to be equal to src.dtype"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
