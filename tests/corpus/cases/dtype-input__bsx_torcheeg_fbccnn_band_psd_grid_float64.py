"""TorchEEG FBCCNN on a CSVFolderDataset: the band-power grid the online transform returns is float64, the conv weights float32.

Source: https://github.com/torcheeg/torcheeg/issues/65
Training `FBCCNN` on a `CSVFolderDataset` with `online_transform=Compose([BandPowerSpectralDensity(
sampling_rate=1000), ToGrid(location_dict)])` failed in the first convolution with "Input type
(double) and bias type (float) should be the same": the numpy PSD features are float64 and nothing
in the transform chain casts them (no `ToTensor`, which yields float32). Casting the features to
float32 fixes it.
Stand-ins: band power via numpy periodogram over 4 bands, ToGrid onto a 9x9 electrode grid, an
FBCCNN-shaped network (conv stack + linear head); CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

BANDS = {"theta": (4, 8), "alpha": (8, 14), "beta": (14, 31), "gamma": (31, 49)}
CHANNEL_LIST = ["FP1", "FPZ", "FP2", "F7", "F3", "FZ", "F4", "F8", "C3", "CZ", "C4", "P3", "PZ", "P4", "O1", "OZ", "O2"]
location_dict = {ch: (i // 9 * 2, i % 9) for i, ch in enumerate(CHANNEL_LIST)}

def band_power_spectral_density(eeg, sampling_rate=1000):
    freqs = np.fft.rfftfreq(eeg.shape[-1], 1.0 / sampling_rate)
    psd = np.abs(np.fft.rfft(eeg, axis=-1)) ** 2 / eeg.shape[-1]
    return np.stack([psd[:, (freqs >= lo) & (freqs < hi)].mean(-1) for lo, hi in BANDS.values()], axis=0)

def to_grid(bands, location_dict):
    grid = np.zeros((bands.shape[0], 9, 9))
    for i, ch in enumerate(CHANNEL_LIST):
        r, c = location_dict[ch]
        grid[:, r, c] = bands[:, i]
    return grid

def online_transform(eeg):
    return {"eeg": to_grid(band_power_spectral_density(eeg), location_dict)}

class FBCCNN(nn.Module):
    def __init__(self, num_classes=2, in_channels=4, grid_size=(9, 9)):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(in_channels, 12, 3, padding=1), nn.BatchNorm2d(12), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(12, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.lin1 = nn.Linear(32 * grid_size[0] * grid_size[1], 256)
        self.lin2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = self.block2(self.block1(x)).flatten(start_dim=1)
        return self.lin2(torch.relu(self.lin1(x)))

rng = np.random.RandomState(0)
trials = [rng.randn(len(CHANNEL_LIST), 1000) for _ in range(8)]
labels = rng.randint(0, 2, 8)
X = torch.from_numpy(np.stack([online_transform(t)["eeg"] for t in trials]))
y = torch.from_numpy(labels)

model = FBCCNN(num_classes=2)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
'''
CELL = '''
optimizer.zero_grad()
pred = model(X)
loss = loss_fn(pred, y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
