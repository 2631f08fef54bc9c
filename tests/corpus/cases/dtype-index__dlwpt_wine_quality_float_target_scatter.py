"""Deep Learning with PyTorch, ch. 4 wine quality: the score column is still float when used as scatter_'s index.

Source: https://github.com/deep-learning-with-pytorch/dlwpt-code/issues/12
`target_onehot = torch.zeros(target.shape[0], 10); target_onehot.scatter_(1, target.unsqueeze(1),
1.0)` failed with "Expected object of scalar type Long but got scalar type Float for argument #3
'index'". `target = wineq[:, -1]` slices the float32 table loaded with
`np.loadtxt(..., dtype=np.float32)`; the book converts it first, `target = wineq[:, -1].long()`,
which the reader had skipped. Stand-in: random rows in place of the CSV file.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch

wineq_numpy = np.concatenate(
    [np.random.rand(100, 11), np.random.randint(3, 10, (100, 1))], axis=1).astype(np.float32)
wineq = torch.from_numpy(wineq_numpy)
data = wineq[:, :-1]
target = wineq[:, -1]
'''
CELL = '''
target_onehot = torch.zeros(target.shape[0], 10)
target_onehot.scatter_(1, target.unsqueeze(1), 1.0)
'''
EXPECT_ERROR = ("Expected dtype int64 for index", "Expected dtype int32/int64 for index", "scalar type Long")
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = wineq[:, -1].long()
'''
REFERENCE_EDIT = None
CLEAN = False
