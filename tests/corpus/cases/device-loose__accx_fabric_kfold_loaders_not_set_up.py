"""Fabric k-fold example: the per-fold DataLoaders are never passed to `fabric.setup_dataloaders`, so batches stay on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/18580
examples/fabric/kfold_cv/train_fabric.py set up the models and optimizers with `fabric.setup`, then built
a `DataLoader(dataset, sampler=SubsetRandomSampler(train_ids))` per fold and looped over it with the comment
"no need to call `.to(device)` on the data, target"; on a GPU the first conv raised "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same". The fix (PR #18582, "Set
up dataloaders in k-fold cross validation example") adds `train_loader, val_loader =
fabric.setup_dataloaders(train_loader, val_loader)`. Stand-ins: a minimal `Fabric` whose `setup` moves the
model and wraps model/optimizer and whose `setup_dataloaders` wraps loaders to move each batch to
`fabric.device` (lightning.fabric's `_FabricDataLoader`); torch's `DataLoader` and
`SubsetRandomSampler` (fake tensors refuse their `.item()`/`randperm`); the example's MNIST `Net` on 12x12 inputs.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
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
model, optimizer = models[fold], optimizers[fold]
'''
CELL = '''
model.train()
for batch_idx, (data, target) in enumerate(train_loader):
    # NOTE: no need to call `.to(device)` on the data, target
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output, target)
    break
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["train_loader"]
FIX = "namespace"
REFERENCE_FIX = '''
train_loader, val_loader = fabric.setup_dataloaders(train_loader, val_loader)
'''
REFERENCE_EDIT = None
CLEAN = False
