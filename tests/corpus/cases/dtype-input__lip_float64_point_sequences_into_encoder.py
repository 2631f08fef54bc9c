"""LIP discriminator training: point-cloud sequences loaded from numpy stay float64 after `.to(device)`.

Source: https://github.com/4DVLab/LIP/issues/2
`train_dis.py` failed with "Input type (torch.cuda.DoubleTensor) and weight type
(torch.cuda.FloatTensor) should be the same"; the reporter's fix: lines 47-48, `seq_pc =
seq_pc.to(device)` / `seq_gt = seq_gt.to(device)`, should be `.to(device).float()`. The
sequences come from float64 numpy arrays, the network is float32.
Stand-in: the dataset as float64 arrays through a DataLoader and a PointNet-style per-point MLP
with max pooling; the CPU stands in for the GPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

class PointEncoder(nn.Module):
    def __init__(self, out_dim=24 * 3):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 128))
        self.head = nn.Linear(128, out_dim)

    def forward(self, seq_pc):                  # (B, T, N, 3)
        feat = self.mlp(seq_pc).max(dim=2).values
        return self.head(feat)                   # (B, T, 72)

device = torch.device("cpu")
pcs = np.random.randn(8, 4, 128, 3)             # float64, as saved
gts = np.random.randn(8, 4, 72)
loader = DataLoader(TensorDataset(torch.from_numpy(pcs), torch.from_numpy(gts)), batch_size=4)
model = PointEncoder().to(device)
criterion = nn.MSELoss()
seq_pc, seq_gt = next(iter(loader))
seq_pc = seq_pc.to(device)
seq_gt = seq_gt.to(device)
'''
CELL = '''
pred = model(seq_pc)
loss = criterion(pred, seq_gt)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "should be the same")
CULPRITS = ["seq_pc"]
FIX = "namespace"
REFERENCE_FIX = '''
seq_pc = seq_pc.to(device).float()
seq_gt = seq_gt.to(device).float()
'''
REFERENCE_EDIT = None
CLEAN = False
