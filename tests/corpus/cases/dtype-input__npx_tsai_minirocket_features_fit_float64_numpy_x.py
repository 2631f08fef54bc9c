"""tsai MiniRocketFeatures.fit on a float64 NumPy X: torch.from_numpy keeps Double, the conv kernels are Float.

Source: https://github.com/timeseriesAI/tsai/issues/405
`mrf = MiniRocketFeatures(X.shape[1], X.shape[2]).to(default_device()); mrf.fit(X[splits[0]])`
failed with "Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should
be the same": `fit` converts the NumPy array with `torch.from_numpy(X[idxs])`, which keeps the
array's float64, while the model's kernels are float32. The maintainer's answer: make X float32
(`X.astype('float32')`, or `.float()` for a tensor).
Stand-in: a minimal MiniRocketFeatures keeping the from_numpy conversion in fit and a conv1d with
float32 kernels. Devices left out (the bug is the dtype).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class MiniRocketFeatures(nn.Module):
    """Stand-in for tsai.models.MINIROCKET_Pytorch.MiniRocketFeatures."""
    def __init__(self, c_in, seq_len, num_features=84):
        super().__init__()
        self.c_in, self.seq_len = c_in, seq_len
        self.kernels = nn.Parameter(torch.randn(num_features, c_in, 9), requires_grad=False)

    def forward(self, x):
        return F.conv1d(x, self.kernels, padding=4).clamp(min=0).mean(-1)

    def fit(self, X, chunksize=None):
        num_samples = X.shape[0]
        idxs = np.random.choice(num_samples, min(num_samples, 32), False)
        self.fitting = True
        if isinstance(X, np.ndarray):
            self(torch.from_numpy(X[idxs]).to(self.kernels.device))
        else:
            self(X[idxs].to(self.kernels.device))
        self.fitting = False
        return self

X = np.random.randn(40, 3, 50)                 # float64 from the user's dataset
splits = (list(range(30)), list(range(30, 40)))
mrf = MiniRocketFeatures(X.shape[1], X.shape[2])
X_train = X[splits[0]]
'''
CELL = '''
mrf.fit(X_train)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type Double but found Float")
CULPRITS = ["X_train"]
FIX = "namespace"
REFERENCE_FIX = '''
X_train = X_train.astype('float32')
'''
REFERENCE_EDIT = None
CLEAN = False
