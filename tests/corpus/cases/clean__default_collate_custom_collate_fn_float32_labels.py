"""Look-alike: Python-float labels from a Dataset, batched by a `collate_fn` that builds a float32 target.

Source: https://github.com/pytorch/pytorch/issues/69446
In "Unexpected Float64 type output for float input to default_collate" a maintainer (ejguan)
kept float64 as `default_collate`'s choice for Python floats and pointed to the remedy: "You should
be able to provide a custom collate_fn to DataLoader". Here the same Dataset of Python-float labels
goes through such a `collate_fn`, so the BCE target is float32 and the step runs.
"""

SIM = "cpu"
FAMILY = "clean"
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

def collate_fn(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys, dtype=torch.float32)

model = nn.Sequential(nn.Linear(6, 1), nn.Sigmoid())
criterion = nn.BCELoss()
loader = DataLoader(PairDataset(), batch_size=8, shuffle=True, collate_fn=collate_fn)
x, target = next(iter(loader))
'''
CELL = '''
pred = model(x).squeeze(1)
loss = criterion(pred, target)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
