"""Look-alike: pytorch-3dunet (PlantSeg's network code) predicting a confocal volume patch by patch: patches stay numpy, each batch goes to the model's device.

Source: https://github.com/wolny/pytorch-3dunet/blob/master/pytorch3dunet/unet3d/predictor.py
The standard predictor iterates over a sliced dataset of numpy patches, sends each batch with
`input.to(device)` (`device` from the config, where `model.to(device)` was also applied), runs the
GroupNorm 3D U-Net in eval mode and accumulates the predictions. The namespace holds the CPU
volume beside a model on cuda:0: correct, no finding. Stand-in: a tiny 3D U-Net block with
GroupNorm and the patch loop; the copy back into the numpy output volume is left out (fake
cuda cannot copy back).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class UNet3D(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, f=8):
        super().__init__()
        self.enc = nn.Sequential(nn.GroupNorm(1, in_channels), nn.Conv3d(in_channels, f, 3, padding=1), nn.ReLU())
        self.gn = nn.GroupNorm(4, f)
        self.final_conv = nn.Conv3d(f, out_channels, 1)

    def forward(self, x):
        return torch.sigmoid(self.final_conv(self.gn(self.enc(x))))

def slice_patches(volume, patch=(16, 32, 32)):
    z, y, x = patch
    for i in range(0, volume.shape[0], z):
        for j in range(0, volume.shape[1], y):
            yield volume[None, i:i + z, j:j + y, 0:x]

class StandardPredictor:
    def __init__(self, model, device, batch_size=2):
        self.model, self.device, self.batch_size = model, device, batch_size

    def __call__(self, volume):
        self.model.eval()
        predictions = []
        patches = list(slice_patches(volume))
        with torch.no_grad():
            for k in range(0, len(patches), self.batch_size):
                batch = torch.from_numpy(np.stack(patches[k:k + self.batch_size]))
                batch = batch.to(self.device)
                predictions.append(self.model(batch))
        return predictions

device = torch.device("cuda:0")
model = UNet3D()
model = model.to(device)
raw = np.random.default_rng(0).random((32, 64, 32), dtype=np.float32)   # a normalised confocal stack
predictor = StandardPredictor(model, device)
'''
CELL = '''
boundaries = predictor(raw)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
