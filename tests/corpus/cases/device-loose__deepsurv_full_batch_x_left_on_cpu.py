"""DeepSurv training loop: the model is on the GPU, the full-batch X from the DataLoader is not.

Source: https://github.com/czifan/DeepSurv.pytorch/issues/8
`python main.py` failed in `risk_pred = model(X)` with "Expected all tensors to be on the same
device, but found at least two devices": `train()` builds `DeepSurv(...).to(device)` and the loss
`.to(device)`, but the `(X, y, e)` batches the DataLoader yields from the h5 dataset are never moved.
Stand-in: the repo's DeepSurv MLP and an in-memory SurvivalDataset (no h5 file); the loader's
single full batch is taken by slicing the dataset (iterating a DataLoader needs real tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import Dataset

device = torch.device("cuda:0")

class DeepSurv(nn.Module):
    def __init__(self, dims=(9, 32, 32, 1), drop=0.2):
        super().__init__()
        layers = []
        for i in range(len(dims) - 1):
            if i and drop is not None:
                layers.append(nn.Dropout(drop))
            layers.append(nn.Linear(dims[i], dims[i + 1]))
            if i < len(dims) - 2:
                layers.append(nn.SELU())
        self.model = nn.Sequential(*layers)

    def forward(self, X):
        return self.model(X)

class SurvivalDataset(Dataset):
    """In-memory stand-in for the repo's h5-backed dataset: X, time y, event e."""
    def __init__(self, n=64):
        self.X = torch.randn(n, 9)
        self.y = torch.rand(n, 1) * 10
        self.e = torch.randint(0, 2, (n, 1)).float()

    def __getitem__(self, i):
        return self.X[i], self.y[i], self.e[i]

    def __len__(self):
        return len(self.X)

model = DeepSurv().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_dataset = SurvivalDataset()
model.train()
# the DataLoader (batch_size=len(train_dataset)) yields this single full batch, still on the CPU
X, y, e = train_dataset[:]
'''
CELL = '''
risk_pred = model(X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
