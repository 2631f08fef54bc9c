"""MONAI classification_3d densenet_training_array example on Windows: the IXI labels array is int32, so the collated labels reach CrossEntropyLoss as Int.

Source: https://github.com/Project-MONAI/MONAI/issues/546
"Classification_3d densenet_training_array example bug": on Windows 10 (MONAI 0.1.0, PyTorch 1.5)
the example stopped in the first epoch at `loss = loss_function(outputs, labels)` because "Torch
target attribute ... is expected to be of type Long, but it is Int". `labels = np.array([0, 0, 1,
...])` takes numpy's default integer, int32 on Windows, and NiftiDataset/ImageDataset hands each
label on, so every batch of labels is int32. Stand-ins: the dataset (random volumes for the IXI T1
files), the intensity/resize transforms, and a small 3D CNN for densenet121; the Windows default
integer is written as dtype=np.int32.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

class ImageDataset(Dataset):
    """monai.data.ImageDataset / NiftiDataset: (image, label) pairs, label taken from the array."""
    def __init__(self, image_files, labels, transform=None):
        self.image_files, self.labels, self.transform = image_files, labels, transform
        self._rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.image_files)

    def __getitem__(self, index):
        img = self._rng.random((24, 24, 24)).astype(np.float32)      # nibabel.load(...).get_fdata()
        if self.transform is not None:
            img = self.transform(img)
        return img, self.labels[index]

def train_transforms(img):                       # ScaleIntensity, AddChannel, Resize, ToTensor
    img = (img - img.min()) / (img.max() - img.min())
    return torch.from_numpy(img[None])

images = [f"/workspace/data/medical/ixi/IXI-T1/IXI{n:03d}-Guys-0{700 + n}-T1.nii.gz" for n in range(10)]
# 2 binary labels for gender classification: man and woman  (np.int_ is int32 on Windows)
labels = np.array([0, 0, 1, 0, 1, 0, 1, 0, 1, 0], dtype=np.int32)

train_ds = ImageDataset(image_files=images, labels=labels, transform=train_transforms)
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True, num_workers=0)

device = torch.device("cpu")
model = nn.Sequential(nn.Conv3d(1, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool3d(1),
                      nn.Flatten(), nn.Linear(8, 2)).to(device)           # densenet121(spatial_dims=3, ...)
loss_function = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), 1e-5)
'''
CELL = '''
epoch_loss = 0
step = 0
model.train()
for batch_data in train_loader:
    step += 1
    inputs, labels = batch_data[0].to(device), batch_data[1].to(device)
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = loss_function(outputs, labels)
    loss.backward()
    optimizer.step()
    epoch_loss += loss.item()
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Int", "expected scalar type Long but found Int")
CULPRITS = ["labels"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("labels = np.array([0, 0, 1, 0, 1, 0, 1, 0, 1, 0], dtype=np.int32)",
                  "labels = np.array([0, 0, 1, 0, 1, 0, 1, 0, 1, 0], dtype=np.int64)")
CLEAN = False
