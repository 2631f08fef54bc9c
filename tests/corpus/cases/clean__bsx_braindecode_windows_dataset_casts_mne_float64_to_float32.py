"""braindecode `WindowsDataset.__getitem__`: MNE epochs data come out float64 and are cast to float32 before reaching the network.

Source: https://github.com/braindecode/braindecode/blob/master/braindecode/datasets/base.py
`X = self.windows.get_data(item=index)[0].astype('float32')`: MNE returns float64 arrays, the
dataset casts each window, the target stays an int. Look-alike: float64 EEG upstream of a float32
ConvNet, with an explicit cast, that runs.
Stand-ins: an epochs object returning float64 arrays, the dataset, a numpy collate, a small
ShallowFBCSPNet-shaped network; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Epochs:
    def __init__(self, n=6, n_chans=22, n_times=250, seed=0):
        self._data = np.random.RandomState(seed).randn(n, n_chans, n_times)   # float64 as MNE

    def get_data(self, item=None):
        return self._data[[item]] if item is not None else self._data

class WindowsDataset:
    def __init__(self, windows, targets):
        self.windows, self.y = windows, targets

    def __len__(self):
        return len(self.y)

    def __getitem__(self, index):
        X = self.windows.get_data(item=index)[0].astype('float32')
        return X, self.y[index]

class Net(nn.Module):
    def __init__(self, n_chans=22, n_outputs=4):
        super().__init__()
        self.conv_time = nn.Conv2d(1, 8, (25, 1))
        self.conv_spat = nn.Conv2d(8, 8, (1, n_chans), bias=False)
        self.head = nn.Linear(8, n_outputs)

    def forward(self, x):
        x = self.conv_spat(self.conv_time(x.permute(0, 2, 1).unsqueeze(1)))
        return self.head(torch.log(torch.clamp((x * x).mean(dim=(2, 3)), min=1e-6)))

ds = WindowsDataset(Epochs(), [0, 1, 2, 3, 0, 1])
items = [ds[i] for i in range(len(ds))]
X = torch.from_numpy(np.stack([it[0] for it in items]))
y = torch.as_tensor([it[1] for it in items])
model = Net()
'''
CELL = '''
loss = nn.functional.cross_entropy(model(X), y)
loss.backward()
print(X.dtype, float(loss))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
