"""`torch.normal` with a mean made by `torch.tensor(1)`: an int64 mean has no normal kernel.

Source: https://github.com/pytorch/pytorch/issues/180560
"Feedback about torch.normal": the user sampled with `torch.normal` using `torch.tensor(1)` as the mean
(they had set `torch.set_default_dtype(torch.float64)`, which does not affect integer literals) and got
`NotImplementedError: "normal_kernel_cpu" not implemented for 'Long'` (same on CUDA). The thread and
the doc PR (#180580): `torch.normal` only supports floating-point dtypes; `torch.tensor(1)` is int64,
use `torch.tensor(1.0)` (or cast the mean to a floating dtype).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch

mean = torch.tensor(1).expand(5)
std = 1.0
'''
CELL = '''
samples = torch.normal(mean, std)
'''
EXPECT_ERROR = "not implemented for 'Long'"
CULPRITS = ["mean"]
FIX = "namespace"
REFERENCE_FIX = '''
mean = mean.double()
'''
REFERENCE_EDIT = None
CLEAN = False
