"""Look-alike: Fabric k-fold example after the fix: per-fold DataLoaders go through `fabric.setup_dataloaders`, and the batches reach the model without any `.to(device)`.

Source: https://github.com/Lightning-AI/pytorch-lightning/blob/master/examples/fabric/kfold_cv/train_fabric.py
The example builds a fresh `DataLoader(dataset, sampler=SubsetRandomSampler(ids))` for every fold, wraps both
with `fabric.setup_dataloaders(train_loader, val_loader)` ("set up dataloaders to move data to the correct
device"), and never moves `data`/`target` itself ("NOTE: no need to call `.to(device)` on the data, target");
the torchmetrics `Accuracy` is created once with `.to(fabric.device)`. Every op sees cuda:0. Stand-ins: a
minimal `Fabric` (setup moves the model, `_FabricDataLoader` moves each batch), torch's DataLoader/sampler
(their `.item()`/`randperm` cannot run on fake tensors) and a buffer-based `Accuracy`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import random
from torch.utils.data import Sampler, TensorDataset


class DataLoader:
    """torch DataLoader stand-in (its iterator seeds itself with `.item()`, which fake tensors refuse)."""
    def __init__(self, dataset, batch_size=1, sampler=None):
        self.dataset, self.batch_size = dataset, batch_size
        self.sampler = sampler if sampler is not None else range(len(dataset))

    def __len__(self):
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        idx = list(self.sampler)
        for i in range(0, len(idx), self.batch_size):
            items = [self.dataset[j] for j in idx[i:i + self.batch_size]]
            yield [torch.stack(col) for col in zip(*items)]


class SubsetRandomSampler(Sampler):
    """torch's SubsetRandomSampler, shuffled with `random` (torch.randperm cannot run on fake tensors)."""
    def __init__(self, indices):
        self.indices = list(indices)

    def __iter__(self):
        return iter(random.sample(self.indices, len(self.indices)))

    def __len__(self):
        return len(self.indices)


class _FabricModule(nn.Module):
    """lightning.fabric.wrappers._FabricModule stand-in."""
    def __init__(self, module):
        super().__init__()
        self._forward_module = module

    def forward(self, *args, **kwargs):
        return self._forward_module(*args, **kwargs)


class _FabricOptimizer:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def zero_grad(self, set_to_none=True):
        self.optimizer.zero_grad(set_to_none=set_to_none)

    def step(self):
        return self.optimizer.step()


class _FabricDataLoader:
    """Moves every batch to the Fabric device, like lightning.fabric's _FabricDataLoader."""
    def __init__(self, dataloader, device):
        self._dataloader = dataloader
        self.device = device
        self.dataset = dataloader.dataset

    def __len__(self):
        return len(self._dataloader)

    def __iter__(self):
        for batch in self._dataloader:
            yield [t.to(self.device) for t in batch]


class Accuracy(nn.Module):
    """torchmetrics MulticlassAccuracy stand-in: its states are buffers, so `.to()` moves them."""
    def __init__(self, task="multiclass", num_classes=10):
        super().__init__()
        self.register_buffer("correct", torch.zeros((), dtype=torch.long))
        self.register_buffer("total", torch.zeros((), dtype=torch.long))

    def update(self, preds, target):
        self.correct += (preds.argmax(dim=-1) == target).sum()
        self.total += torch.ones_like(target).sum()

    def compute(self):
        return self.correct.float() / self.total

    def reset(self):
        self.correct.zero_()
        self.total.zero_()


class Fabric:
    def __init__(self):
        self.device = torch.device("cuda:0")

    def setup(self, module, optimizer):
        module.to(self.device)
        return _FabricModule(module), _FabricOptimizer(optimizer)

    def setup_dataloaders(self, *dataloaders):
        return tuple(_FabricDataLoader(dl, self.device) for dl in dataloaders)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(1024, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


fabric = Fabric()
dataset = TensorDataset(torch.randn(40, 1, 12, 12), torch.randint(0, 10, (40,)))
folds = [(list(range(8, 40)), list(range(0, 8))), (list(range(0, 8)) + list(range(16, 40)), list(range(8, 16)))]

models = [Net() for _ in range(len(folds))]
optimizers = [optim.Adadelta(model.parameters(), lr=1.0) for model in models]
for i in range(len(folds)):
    models[i], optimizers[i] = fabric.setup(models[i], optimizers[i])

fold = 0
train_ids, val_ids = folds[fold]
batch_size = 8
train_loader = DataLoader(dataset, batch_size=batch_size, sampler=SubsetRandomSampler(train_ids))
val_loader = DataLoader(dataset, batch_size=batch_size, sampler=SubsetRandomSampler(val_ids))

# set up dataloaders to move data to the correct device
train_loader, val_loader = fabric.setup_dataloaders(train_loader, val_loader)

# get model and optimizer for the current fold
model, optimizer = models[fold], optimizers[fold]

# Accuracy using torchmetrics
acc_metric = Accuracy(task="multiclass", num_classes=10).to(fabric.device)
'''
CELL = '''
model.eval()
with torch.no_grad():
    loss = 0
    for data, target in val_loader:
        # NOTE: no need to call `.to(device)` on the data, target
        output = model(data)
        loss += F.nll_loss(output, target, reduction="sum")
        acc_metric.update(output, target)
acc = acc_metric.compute() * 100
acc_metric.reset()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
