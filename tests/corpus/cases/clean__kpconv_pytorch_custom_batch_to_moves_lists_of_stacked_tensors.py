"""Look-alike: KPConv-PyTorch's custom batch holds lists of CPU tensors and moves them all in `.to(device)`.

Source: https://github.com/HuguesTHOMAS/KPConv-PyTorch/blob/master/datasets/S3DIS.py
`S3DISCustomBatch` keeps `points`, `neighbors`, `pools`, `upsamples` and `lengths` as Python lists
of per-layer tensors (built on the CPU by the collate function), plus `features`, `labels` and
`input_inds`; the training loop calls `batch.to(device)`, which rebuilds every list with
`[in_tensor.to(device) for in_tensor in self.points]`. CPU tensors inside lists and a GPU model,
handled on purpose, and the cell runs. Stand-ins: the KPFCNN reduced to one neighbour-gather
block and a head; the collate to a two-layer batch.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class S3DISCustomBatch:
    """Custom batch definition with memory pinning for S3DIS (two layers here)."""
    def __init__(self, input_list):
        L = len(input_list[0])
        self.points = [torch.from_numpy(a) for a in input_list[1]]
        self.neighbors = [torch.from_numpy(a) for a in input_list[2]]
        self.lengths = [torch.from_numpy(a) for a in input_list[3]]
        self.features = torch.from_numpy(input_list[4])
        self.labels = torch.from_numpy(input_list[5])
        self.input_inds = torch.from_numpy(input_list[6])

    def to(self, device):
        self.points = [in_tensor.to(device) for in_tensor in self.points]
        self.neighbors = [in_tensor.to(device) for in_tensor in self.neighbors]
        self.lengths = [in_tensor.to(device) for in_tensor in self.lengths]
        self.features = self.features.to(device)
        self.labels = self.labels.to(device)
        self.input_inds = self.input_inds.to(device)
        return self

class SimpleBlock(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.mlp = nn.Linear(in_dim, out_dim)

    def forward(self, x, batch):
        nbr = batch.neighbors[0]
        n, k = nbr.shape
        x = x.index_select(0, nbr.reshape(-1)).reshape(n, k, -1).max(dim=1)[0]
        return torch.relu(self.mlp(x))

class KPFCNN(nn.Module):
    def __init__(self, in_dim=5, num_classes=13):
        super().__init__()
        self.block = SimpleBlock(in_dim, 64)
        self.head_softmax = nn.Linear(64, num_classes)

    def forward(self, batch):
        x = batch.features.clone().detach()
        x = self.block(x, batch)
        return self.head_softmax(x)

import numpy as np
rng = np.random.default_rng(0)
n0, n1, k = 600, 150, 16
input_list = [
    [0, 1],
    [rng.random((n0, 3), dtype=np.float32), rng.random((n1, 3), dtype=np.float32)],
    [rng.integers(0, n0, (n0, k)), rng.integers(0, n1, (n1, k))],
    [np.array([300, 300]), np.array([75, 75])],
    rng.random((n0, 5), dtype=np.float32),
    rng.integers(0, 13, n0),
    rng.integers(0, 10000, n0),
]
device = torch.device("cuda:0")
net = KPFCNN().to(device).eval()
batch = S3DISCustomBatch(input_list)
'''
CELL = '''
batch.to(device)
outputs = net(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
