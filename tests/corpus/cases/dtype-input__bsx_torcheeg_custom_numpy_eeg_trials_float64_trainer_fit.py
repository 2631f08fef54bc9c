"""TorchEEG with a team's own EEG recordings: the trials loaded with numpy are float64 and `trainer.fit` feeds them to a float32 CCNN.

Source: https://github.com/torcheeg/torcheeg/issues/17
"I tried to use EEG datasets collected by our team ... `Input type (double) and bias type (float)
should be the same`" at `trainer.fit(train_loader, val_loader, num_epochs=50)`. The team read
their recordings into numpy arrays (float64 by default) and wrapped them without a dtype; the
maintainer pointed to `NumpyDataset`/`MNEDataset`, whose `ToTensor` transform yields float32.
Stand-ins: the numpy trials already arranged on a 4-band 9x9 grid, a list of (X, y) batches as the
loader, a CCNN-shaped network and a ClassifierTrainer-like `fit`; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class CCNN(nn.Module):
    def __init__(self, in_channels=4, grid_size=(9, 9), num_classes=3, dropout=0.5):
        super().__init__()
        self.conv1 = nn.Sequential(nn.ZeroPad2d((1, 2, 1, 2)), nn.Conv2d(in_channels, 64, 4), nn.ReLU())
        self.conv2 = nn.Sequential(nn.ZeroPad2d((1, 2, 1, 2)), nn.Conv2d(64, 128, 4), nn.ReLU())
        self.lin1 = nn.Sequential(nn.Linear(grid_size[0] * grid_size[1] * 128, 256), nn.SELU(), nn.Dropout2d(dropout))
        self.lin2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = self.conv2(self.conv1(x)).flatten(start_dim=1)
        return self.lin2(self.lin1(x))

class ClassifierTrainer:
    def __init__(self, model, num_classes, lr=1e-4):
        self.model = model
        self.loss_fn = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, train_loader, val_loader, num_epochs=1):
        for _ in range(num_epochs):
            self.model.train()
            for X, y in train_loader:
                self.optimizer.zero_grad()
                loss = self.loss_fn(self.model(X), y)
                loss.backward()
                self.optimizer.step()
            self.model.eval()
            with torch.no_grad():
                for X, y in val_loader:
                    self.model(X)

rng = np.random.RandomState(0)
eeg = rng.randn(24, 4, 9, 9)                     # the team's trials, read with numpy
emotion = rng.randint(0, 3, 24)
batches = [(torch.from_numpy(eeg[i:i + 8]), torch.from_numpy(emotion[i:i + 8])) for i in range(0, 24, 8)]
train_loader, val_loader = batches[:2], batches[2:]

model = CCNN(num_classes=3)
trainer = ClassifierTrainer(model=model, num_classes=3)
'''
CELL = '''
trainer.fit(train_loader, val_loader, num_epochs=1)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["train_loader"]
FIX = "namespace"
REFERENCE_FIX = '''
train_loader = [(X.float(), y) for X, y in train_loader]
val_loader = [(X.float(), y) for X, y in val_loader]
'''
REFERENCE_EDIT = None
CLEAN = False
