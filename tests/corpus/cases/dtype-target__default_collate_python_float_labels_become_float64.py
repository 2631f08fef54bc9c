"""Python-float labels from a Dataset are collated into a float64 target; the float32 prediction's loss fails.

Source: https://github.com/pytorch/pytorch/issues/69446
"Unexpected Float64 type output for float input to default_collate": the user's `Dataset` returned
each label as a Python `float`; `DataLoader`'s `default_collate` turns a batch of Python floats
into a `torch.DoubleTensor`, so `loss = criterion(pred, target)` failed with "Found dtype Double but
expected Float". A maintainer (ejguan) explained that collate keeps float64 on purpose (no
down-casting of user data) and the user must cast or pass a `collate_fn`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader

class PairDataset(Dataset):
    def __init__(self, n=16):
        self.x = torch.randn(n, 6)
        self.y = [float(i % 2) for i in range(n)]     # plain Python floats

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]

model = nn.Sequential(nn.Linear(6, 1), nn.Sigmoid())
criterion = nn.BCELoss()
loader = DataLoader(PairDataset(), batch_size=8, shuffle=True)
x, target = next(iter(loader))
'''
CELL = '''
pred = model(x).squeeze(1)
loss = criterion(pred, target)  # target comes from Dataset and is of type torch.DoubleTensor
loss.backward()
'''
EXPECT_ERROR = "Found dtype Double but expected Float"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.float()
'''
REFERENCE_EDIT = None
CLEAN = False
