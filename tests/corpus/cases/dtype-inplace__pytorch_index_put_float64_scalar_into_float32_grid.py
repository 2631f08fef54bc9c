"""Assigning a float64 scalar tensor into a float32 volume works with a slice but fails with a list index.

Source: https://github.com/pytorch/pytorch/issues/63935
"Inconsistent behaviour of index put when assigning from other type": `x[:,:,1] = y` with a float32
`x` and a float64 0-dim `y` is fine (a copy casts), but `x[[0,1,2],:,1] = y` goes through `index_put_`,
which requires matching dtypes: "Index put requires the source and destination dtypes match, got
Float for the destination and Double for the source." In the report `y` comes out of double-precision
code; the user has to cast it to float32 first.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

x = torch.zeros((3, 3, 3), dtype=torch.float32)
y = torch.tensor(5, dtype=torch.float64)
'''
CELL = '''
# This is ok
x[:, :, 1] = y

# This is not
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
