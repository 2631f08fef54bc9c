"""LR range test on a segmentation set whose masks come out of the Dataset as uint8.

Source: https://github.com/davidtvs/pytorch-lr-finder/issues/19
`lr_finder.range_test(...)` failed inside the training step at `criterion(outputs, labels)` with
"Expected object of scalar type Long but got scalar type Byte for argument #2 'target'". The
maintainer: the labels coming out of the user's DataLoader are Byte (mask images); do the
conversion in the Dataset's `__getitem__` (`labels.long()`) instead of in a training loop.
Stand-in: a minimal `LRFinder.range_test` (exponential LR schedule, train step) and a Dataset
holding uint8 masks as read from PNG files.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

class SegDataset(Dataset):
    def __init__(self, n=16, n_classes=3):
        self.images = torch.rand(n, 3, 32, 32)
        self.masks = torch.randint(0, n_classes, (n, 32, 32), dtype=torch.uint8)   # PNG masks
    def __len__(self):
        return len(self.images)
    def __getitem__(self, idx):
        return self.images[idx], self.masks[idx]

class LRFinder:
    def __init__(self, model, optimizer, criterion, device=None):
        self.model, self.optimizer, self.criterion, self.device = model, optimizer, criterion, device
        self.history = {"lr": [], "loss": []}
    def range_test(self, train_loader, end_lr=10, num_iter=100):
        start_lr = self.optimizer.param_groups[0]["lr"]
        it = iter(train_loader)
        for i in range(num_iter):
            try:
                inputs, labels = next(it)
            except StopIteration:
                it = iter(train_loader)
                inputs, labels = next(it)
            lr = start_lr * (end_lr / start_lr) ** (i / max(num_iter - 1, 1))
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            self.model.train()
            self.optimizer.zero_grad()
            outputs = self.model(inputs)
            loss = self.criterion(outputs, labels)
            loss.backward()
            self.optimizer.step()
            self.history["lr"].append(lr)
            self.history["loss"].append(loss.item())

trainset = SegDataset()
trainloader = DataLoader(trainset, batch_size=4, shuffle=True)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 1))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-7, weight_decay=1e-2)
'''
CELL = '''
lr_finder = LRFinder(model, optimizer, criterion, device="cpu")
lr_finder.range_test(trainloader, end_lr=100, num_iter=5)
'''
EXPECT_ERROR = ("expected scalar type Long but found Byte",
                "expected target dtype to be Long")
CULPRITS = ["trainset.masks"]
FIX = "namespace"
REFERENCE_FIX = '''
trainset.masks = trainset.masks.long()
'''
REFERENCE_EDIT = None
CLEAN = False
