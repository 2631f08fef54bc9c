"""Single-cell expression matrix in float64 fed to a float32 encoder (F.linear).

Source: https://github.com/theislab/scarches/issues/195
"RuntimeError: expected scalar type Float but found Double" in F.linear during training (today:
"mat1 and mat2 must have the same dtype, but got Double and Float"); the maintainers' answer: cast
the input matrix to float32 (`adata.X = adata.X.astype('float32')`). Stand-in: an encoder and a
float64 matrix as anndata returns it.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

encoder = nn.Sequential(nn.Linear(100, 32), nn.ReLU(), nn.Linear(32, 10))
counts = np.random.poisson(1.0, size=(64, 100)).astype(np.float64)
X = torch.tensor(counts)
'''
CELL = '''
z = encoder(X)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
