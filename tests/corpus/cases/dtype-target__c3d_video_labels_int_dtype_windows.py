"""C3D video recognition on Windows: `np.array(..., dtype=int)` makes the labels int32 and the cross-entropy rejects them.

Source: https://github.com/jfzhang95/pytorch-video-recognition/issues/71
`train.py` (on `D:\\anaconda3`) failed at `loss = criterion(outputs, labels)` with "expected scalar
type Long but found Int". `VideoDataset` stores `self.label_array = np.array([...], dtype=int)` and
returns `torch.from_numpy(np.array(self.label_array[index]))`; NumPy's `int` is 32-bit on Windows.
A commenter linked the forum answer: the targets must be int64. Stand-in: the dataset with random
clips instead of frames on disk and a tiny 3D-conv classifier; int32 is forced as Windows gives it.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader

class VideoDataset(Dataset):
    def __init__(self, split="train", clip_len=4, n_videos=12, num_classes=5):
        self.split, self.clip_len = split, clip_len
        labels = [f"class_{i % num_classes}" for i in range(n_videos)]
        self.label2index = {label: index for index, label in enumerate(sorted(set(labels)))}
        self.label_array = np.array([self.label2index[label] for label in labels], dtype=np.int32)  # dtype=int on Windows
        self.buffers = np.random.rand(n_videos, 3, clip_len, 16, 16).astype(np.float32)

    def __len__(self):
        return len(self.label_array)

    def __getitem__(self, index):
        buffer = self.buffers[index]
        labels = np.array(self.label_array[index])
        return torch.from_numpy(buffer), torch.from_numpy(labels)

class C3D(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.conv1 = nn.Conv3d(3, 8, kernel_size=3, padding=1)
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc8 = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.fc8(self.pool(torch.relu(self.conv1(x))).flatten(1))

device = torch.device("cpu")
train_dataloader = DataLoader(VideoDataset(split="train"), batch_size=4, shuffle=True, num_workers=0)
model = C3D(num_classes=5).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
'''
CELL = '''
model.train()
for inputs, labels in train_dataloader:
    inputs = inputs.to(device)
    labels = labels.to(device)
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Int",
                "expected scalar type Long but found Int")
CULPRITS = ["train_dataloader.dataset.label_array"]
FIX = "namespace"
REFERENCE_FIX = '''
train_dataloader.dataset.label_array = train_dataloader.dataset.label_array.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
