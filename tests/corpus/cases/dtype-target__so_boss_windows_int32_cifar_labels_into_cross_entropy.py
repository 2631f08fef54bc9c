"""BOSS semi-supervised CIFAR training on Windows: the labelled batch `lbs_x` is int32.

Source: https://github.com/lnsmith54/BOSS/pull/2
Running PT-BOSS's train.py on Windows (C:\\Users\\...) stopped in `train_one_epoch` at
`loss_x = criteria_x(logits_x, lbs_x)` with "Expected object of scalar type Long but got scalar
type Int for argument #2 'target'". The labels come from NumPy arrays whose default integer is
32-bit on Windows; the PR converts the label tensors to Long. Stand-in: the CIFAR arrays as NumPy
int32 (Windows' default), a TensorDataset/DataLoader and a tiny classifier in place of the WRN.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

data_x = np.random.rand(64, 3, 8, 8).astype(np.float32)
labels_x = np.random.randint(0, 10, 64).astype(np.int32)      # np.int_ is int32 on Windows
dltrain_x = DataLoader(TensorDataset(torch.from_numpy(data_x), torch.from_numpy(labels_x)),
                       batch_size=16, shuffle=True)

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 10))
criteria_x = nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)

def train_one_epoch(model, criteria_x, optim, dltrain_x, n_iters=4):
    model.train()
    dl_x = iter(dltrain_x)
    for it in range(n_iters):
        ims_x_weak, lbs_x = next(dl_x)
        logits_x = model(ims_x_weak)
        loss_x = criteria_x(logits_x, lbs_x)
        optim.zero_grad()
        loss_x.backward()
        optim.step()
'''
CELL = '''
train_one_epoch(model, criteria_x, optim, dltrain_x)
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["dltrain_x"]
FIX = "namespace"
REFERENCE_FIX = '''
dltrain_x = DataLoader(TensorDataset(torch.from_numpy(data_x), torch.from_numpy(labels_x).long()),
                       batch_size=16, shuffle=True)
'''
REFERENCE_EDIT = None
CLEAN = False
