"""MRI slices read with pynrrd are int16; ToTensor keeps them as a ShortTensor that the first Conv2d rejects.

Source: https://github.com/pytorch/pytorch/issues/51034
The user's `MeninDataset.__getitem__` read each file with `nrrd.read(...)` and applied
`transforms.ToTensor()`; ToTensor only rescales uint8 arrays to float, so the int16 scan stays a
ShortTensor and `model(img)` fails with "Input type (torch.cuda.ShortTensor) and weight type
(torch.cuda.FloatTensor) should be the same". The fix: cast the image to float (`img.float()`,
or `nrrd_data.astype(np.float32)` in the dataset).
Stand-ins: np.random int16 arrays for nrrd.read; a ToTensor-like conversion (HWC -> CHW, no
rescaling for non-uint8 arrays, as torchvision does). Devices left out (the bug is the dtype).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

def to_tensor(pic):
    """torchvision.transforms.ToTensor on an ndarray: HWC -> CHW, /255 only for uint8."""
    if pic.ndim == 2:
        pic = pic[:, :, None]
    img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
    if img.dtype == torch.uint8:
        return img.float().div(255)
    return img

class MeninDataset(Dataset):
    def __init__(self, n=4):
        self.images = ['l_%d.nrrd' % i if i % 2 else 'm_%d.nrrd' % i for i in range(n)]
        self.transform = to_tensor

    def __getitem__(self, index):
        image_index = self.images[index]
        nrrd_data = np.random.randint(-1000, 3000, size=(16, 16)).astype(np.int16)  # nrrd.read(...)
        img = self.transform(nrrd_data)
        lab = 0 if self.images[index].split('.')[0][0] == 'l' else 1
        return img, lab

    def __len__(self):
        return len(self.images)

train_data = MeninDataset()
ld_train = DataLoader(dataset=train_data, batch_size=1)

class ne0t(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Sequential(
            nn.Conv2d(in_channels=1, out_channels=16, kernel_size=3, stride=1, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=2))
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16 * 8 * 8, 2)

    def forward(self, x):
        return self.fc(self.flatten(self.conv1(x)))

model = ne0t()
criterion = nn.CrossEntropyLoss()
img, lab = next(iter(ld_train))
'''
CELL = '''
output = model(img)
loss = criterion(output, lab)
loss.backward()
'''
EXPECT_ERROR = ("Input type", "should be the same")
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.float()
'''
REFERENCE_EDIT = None
CLEAN = False
