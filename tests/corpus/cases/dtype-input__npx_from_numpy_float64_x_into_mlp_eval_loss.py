"""MLP regression: X made with torch.from_numpy stays float64 while y was made float32.

Source: https://github.com/pytorch/pytorch/issues/91533
The user printed `torch.float64` right after `X = torch.from_numpy(X)` and built
`y = torch.tensor(y, dtype=torch.float32)`, a TensorDataset and an `nn.Sequential` of Linear layers;
`loss(net(X), y)` failed because the numpy features are float64 and the Linear weights float32
(the reported segfault came from their attempt to cast). The thread's fix: cast the features to
float32 (`X.float()` / `astype(np.float32)`) before building the dataset.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader

rng = np.random.default_rng(0)
X = rng.normal(size=(64, 8))            # features from the user's numpy preprocessing (float64)
y = rng.normal(size=(64, 1))
batch_size, lr, epochs = 16, 1e-3, 1

X = torch.from_numpy(X)
print(X.dtype)
y = torch.tensor(y, dtype=torch.float32)
train_data = TensorDataset(X, y)
train_loader = DataLoader(dataset=train_data, batch_size=batch_size, shuffle=True)

net = nn.Sequential(
    nn.Linear(X.shape[1], 16),
    nn.ReLU(),
    nn.Linear(16, 1)
)
trainer = torch.optim.Adam(net.parameters(), lr=lr)
loss = nn.MSELoss()
'''
CELL = '''
with torch.no_grad():
    l = loss(net(X), y)
    print(f'train loss: {l}')
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Expected object of scalar type")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
