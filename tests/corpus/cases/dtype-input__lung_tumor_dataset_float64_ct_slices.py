"""Lung tumor segmentation: the Dataset returns the preprocessed CT slice as a float64 numpy array, the UNet is float32.

Source: https://github.com/fshnkarimi/LungTumor-Segmentation/issues/1
Training the notebook's UNet raised "Input type (double) and bias type (float) should be the same".
The slices saved by preprocessing are float64 and `LungDataset.__getitem__` returns
`slice = np.load(...) / 3071` unchanged; the default collate turns them into DoubleTensors. Fix
from the thread: "Adding '.astype(np.float32)' to function __getitem__ in dataset.py will solve."
Stand-in: in-memory slices instead of .npy files, a two-level UNet.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class LungDataset(torch.utils.data.Dataset):
    def __init__(self, n=4, size=32):
        rng = np.random.default_rng(0)
        # what np.load gives back for the preprocessed slices: float64 HU values
        self.ct_slices = [rng.normal(0.0, 800.0, size=(size, size)) for _ in range(n)]
        self.masks = [(rng.random((size, size)) > 0.9).astype(np.uint8) for _ in range(n)]

    def __len__(self):
        return len(self.ct_slices)

    def __getitem__(self, idx):
        slice = self.ct_slices[idx] / 3071
        mask = self.masks[idx]
        return np.expand_dims(slice, 0), np.expand_dims(mask, 0)

class DoubleConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.step = nn.Sequential(nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(out_ch, out_ch, 3, padding=1), nn.ReLU())

    def forward(self, x):
        return self.step(x)

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = DoubleConv(1, 8)
        self.layer2 = DoubleConv(8, 16)
        self.layer3 = DoubleConv(16 + 8, 8)
        self.layer4 = nn.Conv2d(8, 1, 1)
        self.maxpool = nn.MaxPool2d(2)

    def forward(self, x):
        x1 = self.layer1(x)
        x2 = self.layer2(self.maxpool(x1))
        x3 = nn.functional.interpolate(x2, scale_factor=2)
        return self.layer4(self.layer3(torch.cat([x3, x1], dim=1)))

train_dataset = LungDataset()
train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=2, shuffle=False)
model = UNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
loss_fn = nn.BCEWithLogitsLoss()
'''
CELL = '''
for ct, mask in train_loader:
    mask = mask.float()
    pred = model(ct)
    loss = loss_fn(pred, mask)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = "Input type (double) and bias type (float) should be the same"
CULPRITS = ["train_dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        slice = self.ct_slices[idx] / 3071",
    "        slice = (self.ct_slices[idx] / 3071).astype(np.float32)",
)
CLEAN = False
