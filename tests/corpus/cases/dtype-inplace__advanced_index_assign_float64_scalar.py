"""Assigning a float64 tensor into a float32 tensor through a list index fails, while a slice works.

Source: https://github.com/pytorch/pytorch/issues/63935
"Inconsistent behaviour of index put when assigning from other type": with
`x = torch.zeros((3,3,3), dtype=torch.float32)` and `y = torch.tensor(5, dtype=torch.float64)`,
`x[:,:,1] = y` is fine but `x[[0,1,2],:,1] = y` raises "Index put requires the source and
destination dtypes match, got Float for the destination and Double for the source." The maintainers
keep it on purpose (no silent casts in index_put); the source must be cast: `y.to(torch.float32)`.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

x = torch.zeros((3, 3, 3), dtype=torch.float32)
y = torch.tensor(5, dtype=torch.float64)
x[:, :, 1] = y          # basic indexing: copies and casts
'''
CELL = '''
x[[0, 1, 2], :, 1] = y
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["y"]
FIX = "namespace"
REFERENCE_FIX = '''
y = y.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
