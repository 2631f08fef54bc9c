"""TorchEEG transform chain: float64 band-power grids computed in numpy are cast by `ToTensor` to float32 before the CCNN.

Source: https://github.com/torcheeg/torcheeg/blob/main/torcheeg/transforms/numpy/to.py
`ToTensor.apply` returns `torch.from_numpy(eeg).float()`: the numpy features (band differential
entropy / PSD on a 9x9 grid, float64) become float32 tensors, and the labels stay int64 for the
cross-entropy. Look-alike: float64 EEG features upstream of a float32 model by design, that runs.
Stand-ins: numpy band features, `ToGrid`, `ToTensor`, a CCNN-shaped network; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ToGrid:
    def __init__(self, channel_location_dict):
        self.channel_location_dict = channel_location_dict

    def __call__(self, eeg):
        out = np.zeros((eeg.shape[0], 9, 9))
        for i, (r, c) in enumerate(self.channel_location_dict.values()):
            out[:, r, c] = eeg[:, i]
        return out

class ToTensor:
    def __call__(self, eeg):
        return torch.from_numpy(eeg).float()

class CCNN(nn.Module):
    def __init__(self, in_channels=4, num_classes=2):
        super().__init__()
        self.conv1 = nn.Sequential(nn.ZeroPad2d((1, 2, 1, 2)), nn.Conv2d(in_channels, 16, 4), nn.ReLU())
        self.lin = nn.Linear(16 * 81, num_classes)

    def forward(self, x):
        return self.lin(self.conv1(x).flatten(1))

locations = {f"ch{i}": (i // 9, i % 9) for i in range(32)}
to_grid, to_tensor = ToGrid(locations), ToTensor()
rng = np.random.RandomState(0)
band_features = rng.randn(6, 4, 32)                  # float64, 4 bands x 32 electrodes
X = torch.stack([to_tensor(to_grid(f)) for f in band_features])
y = torch.from_numpy(rng.randint(0, 2, 6))
model = CCNN()
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
loss = loss_fn(model(X), y)
loss.backward()
print(X.dtype, y.dtype, float(loss))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
