"""Deep Learning with PyTorch, ch. 4 (tabular wine data): float32 features, int64 target and a float one-hot made with `scatter_`.

Source: https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch4/4_tabular_wine.ipynb
The book loads the wine CSV with `np.loadtxt(..., dtype=np.float32)`, wraps it with
`torch.from_numpy`, splits `data = wineq[:, :-1]` and `target = wineq[:, -1].long()`, builds
`target_onehot = torch.zeros(target.shape[0], 10)` and fills it with
`target_onehot.scatter_(1, target.unsqueeze(1), 1.0)`, then normalises the float data.
Look-alike: float32 data, an int64 index tensor and a Python-float fill value meet in one in-place
op on purpose; nothing needs a cast. Stand-in: random wine-like rows instead of the CSV file.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

rng = np.random.RandomState(0)
wineq_numpy = np.concatenate([rng.rand(100, 11).astype(np.float32) * 10,
                              rng.randint(3, 10, size=(100, 1)).astype(np.float32)], axis=1)
wineq = torch.from_numpy(wineq_numpy)
'''
CELL = '''
data = wineq[:, :-1]
target = wineq[:, -1].long()
target_onehot = torch.zeros(target.shape[0], 10)
target_onehot.scatter_(1, target.unsqueeze(1), 1.0)
data_mean = torch.mean(data, dim=0)
data_var = torch.var(data, dim=0)
data_normalized = (data - data_mean) / torch.sqrt(data_var)
bad_indexes = target <= 3
bad_data = data[bad_indexes]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
