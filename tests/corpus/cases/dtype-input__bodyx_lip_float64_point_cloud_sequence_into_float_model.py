"""LIP (LiDAR-aided inertial poser) training: the point-cloud sequences come out of the dataset as float64.

Source: https://github.com/4DVLab/LIP/issues/2
"RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should
be the same" in `train_dis.py`: the loop only does `seq_pc = seq_pc.to(device)` and
`seq_gt = seq_gt.to(device)`, and the numpy-backed dataset yields float64. The reporter's fix:
`seq_pc = seq_pc.to(device).float()`, `seq_gt = seq_gt.to(device).float()`. Stand-in: a PointNet-style
Conv1d encoder + GRU regressing per-frame joint positions, one batch from the loader (CPU, dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class DistNet(nn.Module):
    def __init__(self, n_joints=24, hidden=64):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.conv2 = nn.Conv1d(32, hidden, 1)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_joints * 3)

    def forward(self, seq_pc):                      # (B, T, N, 3)
        B, T, N, _ = seq_pc.shape
        x = seq_pc.reshape(B * T, N, 3).transpose(1, 2)
        x = F.relu(self.conv2(F.relu(self.conv1(x)))).max(-1).values
        x, _ = self.gru(x.reshape(B, T, -1))
        return self.head(x).reshape(B, T, -1, 3)

device = torch.device('cpu')
model = DistNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
rng = np.random.default_rng(0)
seq_pc = torch.from_numpy(rng.normal(size=(2, 4, 64, 3)))     # float64 from the dataset
seq_gt = torch.from_numpy(rng.normal(size=(2, 4, 24, 3)))
seq_pc = seq_pc.to(device)
seq_gt = seq_gt.to(device)
'''
CELL = '''
pred = model(seq_pc)
loss = F.mse_loss(pred, seq_gt)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype", "found dtype")
CULPRITS = ["seq_pc"]
FIX = "namespace"
REFERENCE_FIX = '''
seq_pc = seq_pc.to(device).float()
seq_gt = seq_gt.to(device).float()
'''
REFERENCE_EDIT = None
CLEAN = False
