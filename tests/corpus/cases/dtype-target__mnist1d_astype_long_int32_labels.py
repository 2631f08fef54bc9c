"""MNIST-1D notebook labels made with `.astype('long')` are int32 on Windows; CrossEntropyLoss rejects them.

Source: https://github.com/udlbook/udlbook/pull/224
"fix(8.1): error in Chap08/8_1_MNIST_1D_Performance.ipynb": `y_train =
torch.tensor(data['y'].transpose().astype('long'))` gives int32 on Windows (numpy's 'long' is the
C long there), and the loss raised "expected scalar type Long but found Int"; the fix uses
`astype('int64')`. On Linux 'long' is int64, so the stand-in writes the Windows result (int32)
explicitly. Reduced: random data in place of the mnist1d download.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
data = {"x": rng.standard_normal((400, 40)), "y": rng.integers(0, 10, 400),
        "x_test": rng.standard_normal((100, 40)), "y_test": rng.integers(0, 10, 100)}

x_train = torch.tensor(data['x'].astype('float32'))
y_train = torch.tensor(data['y'].transpose().astype('int32'))   # what astype('long') gives on Windows

D_i, D_k, D_o = 40, 100, 10
model = nn.Sequential(nn.Linear(D_i, D_k), nn.ReLU(), nn.Linear(D_k, D_k), nn.ReLU(), nn.Linear(D_k, D_o))
loss_function = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
'''
CELL = '''
optimizer.zero_grad()
pred = model(x_train)
loss = loss_function(pred, y_train)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long")
CULPRITS = ["y_train"]
FIX = "namespace"
REFERENCE_FIX = '''
y_train = y_train.long()
'''
REFERENCE_EDIT = None
CLEAN = False
