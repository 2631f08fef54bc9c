"""FL simulation: the client datasets hold their labels as float tensors, and `compute_loss` hands them to CrossEntropyLoss.

Source: https://github.com/burlachenkok/flpytorch/pull/14
"Fix #12: PyTorch expects Long rather than Double or Float when computing CrossEntropyLoss": in
`utils.models_funcs.compute_loss` the simulations crashed when computing the cross-entropy loss
because the labels "are passed into the function as floating points by default". Stand-ins: a client
dataset built with `torch.Tensor(...)` (float32) for features and labels, the framework's
`compute_loss(model, criterion, data, labels)`, and a small classifier.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

def compute_loss(model, criterion, data, labels):
    """utils.models_funcs.compute_loss before the fix."""
    outputs = model(data)
    return criterion(outputs, labels)

rng = np.random.default_rng(0)
client_x = rng.normal(size=(32, 20))
client_y = rng.integers(0, 10, size=32)
client_dataset = TensorDataset(torch.Tensor(client_x), torch.Tensor(client_y))
train_loader = DataLoader(client_dataset, batch_size=8, shuffle=False)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data, labels = next(iter(train_loader))
'''
CELL = '''
optimizer.zero_grad()
loss = compute_loss(model, criterion, data, labels)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Float", "expected target dtype to be Long")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
