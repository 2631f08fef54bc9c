"""open_lth (lottery-ticket pruning) on Windows: the CIFAR labels array is int32, cross entropy wants int64.

Source: https://github.com/facebookresearch/open_lth/pull/10
"[FIX] change labels type from int32 to long": the dataset is built as
`Dataset(train_set.data, np.array(train_set.targets))`, and `np.array` of Python ints is int32 where
the C long is 32-bit (Windows), so `default_collate` stacks the per-example numpy labels into an
int32 tensor and `model.loss_criterion(model(examples), labels)` (CrossEntropyLoss) raises "expected
scalar type Long but found Int". Stand-in: open_lth's ImageDataset / a small CIFAR model; the
Windows numpy default is written out as `dtype=np.int32`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ImageDataset(torch.utils.data.Dataset):
    """open_lth.datasets.base.ImageDataset (reduced)."""
    def __init__(self, examples, labels):
        self._examples = examples
        self._labels = labels

    def __len__(self):
        return len(self._labels)

    def __getitem__(self, index):
        x = torch.from_numpy(self._examples[index]).permute(2, 0, 1).float() / 255.0
        return x, self._labels[index]

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3)))

    @property
    def loss_criterion(self):
        return self.criterion

train_data = np.random.randint(0, 255, (32, 16, 16, 3), dtype=np.uint8)   # CIFAR10(train=True).data
train_targets = list(np.random.randint(0, 10, 32))                          # CIFAR10(train=True).targets
train_set = ImageDataset(train_data, np.array(train_targets, dtype=np.int32))   # np.array(targets) on Windows
train_loader = torch.utils.data.DataLoader(train_set, batch_size=8, shuffle=True)
model = Model()
step_optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
examples, labels = next(iter(train_loader))
'''
CELL = '''
step_optimizer.zero_grad()
model.train()
loss = model.loss_criterion(model(examples), labels)
loss.backward()
step_optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "Long")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
