"""`torch.set_default_dtype(torch.float64)`, but the CIFAR DataLoader still yields float32 images.

Source: https://github.com/pytorch/pytorch/issues/10393
The user set the default dtype (and tensor type) to double, built the network (its parameters are
float64) and loaded CIFAR10 with `transforms.ToTensor()`: `next(iter(train_loader))[0].dtype` is
still torch.float32, because ToTensor converts images with an explicit `.float()`, so the double
model gets float images. Answer in the thread: the transform's dtype is fixed; cast the batch (or
do not rely on the default dtype for data). Stand-in: a CIFAR-shaped uint8 dataset with ToTensor's
conversion, the DataLoader and a small CNN.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.utils.data as tdata

torch.set_default_dtype(torch.float64)

def to_tensor(pic):
    """torchvision.transforms.ToTensor on a HWC uint8 array."""
    img = torch.from_numpy(pic).permute(2, 0, 1).contiguous()
    return img.float().div(255)

class CIFAR10(tdata.Dataset):
    def __init__(self, n=16, transform=None):
        rng = np.random.default_rng(0)
        self.data = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
        self.targets = rng.integers(0, 10, size=n).tolist()
        self.transform = transform
    def __len__(self):
        return len(self.data)
    def __getitem__(self, i):
        return self.transform(self.data[i]), self.targets[i]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(6 * 14 * 14, 10)
    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        return self.fc1(x.flatten(1))

net = Net()
train_data = CIFAR10(transform=to_tensor)
train_loader = tdata.DataLoader(train_data, batch_size=8, shuffle=True)
images, labels = next(iter(train_loader))
'''
CELL = '''
outputs = net(images)
loss = nn.functional.cross_entropy(outputs, labels)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type", "Input type")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.to(torch.get_default_dtype())
'''
REFERENCE_EDIT = None
CLEAN = False
