"""MixMatch-pytorch `validate`: the CIFAR-10 labels reach `nn.CrossEntropyLoss` as int32 and PyTorch 1.11 rejects them.

Source: https://github.com/YU1ut/MixMatch-pytorch/pull/46
"Update to work with pytorch 1.11.0": running the repo on PyTorch 1.11 failed with `RuntimeError:
"nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Int'` at `loss =
criterion(outputs, targets)` in `validate`; the labels from `CIFAR10_labeled` (a numpy array of
class ids indexed by the split) arrive as Int. The PR converts them to long in `validate`
(`targets = targets.type(torch.LongTensor)`, in the `use_cuda` branch) and, separately, changes a
`.view(-1)` in `utils/eval.py` to `.reshape(-1)`.
Stand-in: `CIFAR10_labeled` over random images with int32 label ids, a tiny model and EMA copy,
and `validate` reduced to the loss (the accuracy/progress-bar bookkeeping dropped); the case runs on
the CPU (dtype bug), so the cast sits just before the loss.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import copy
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

class CIFAR10_labeled(Dataset):
    def __init__(self, data, targets, indexs=None, transform=None):
        self.data = data
        self.targets = targets
        if indexs is not None:
            self.data = self.data[indexs]
            self.targets = np.array(self.targets)[indexs]
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img, target = self.data[index], self.targets[index]
        if self.transform is not None:
            img = self.transform(img)
        return img, target

class AverageMeter:
    def __init__(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

def validate(valloader, model, criterion, epoch, use_cuda, mode):
    losses = AverageMeter()
    model.eval()
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(valloader):
            if use_cuda:
                inputs, targets = inputs.cuda(), targets.cuda(non_blocking=True)
            # compute output
            outputs = model(inputs)
            loss = criterion(outputs, targets)
            losses.update(loss.item(), inputs.size(0))
    return losses.avg

rng = np.random.default_rng(0)
raw_images = rng.normal(size=(100, 3, 8, 8)).astype(np.float32)
raw_targets = rng.integers(0, 10, size=100).astype(np.int32)   # the class ids arrive as Int
val_idxs = np.arange(50, 100)
val_set = CIFAR10_labeled(raw_images, raw_targets, indexs=val_idxs, transform=torch.from_numpy)
val_loader = DataLoader(val_set, batch_size=16, shuffle=False)

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
ema_model = copy.deepcopy(model)
for param in ema_model.parameters():
    param.detach_()
criterion = nn.CrossEntropyLoss()
use_cuda = False   # the report ran on a GPU; the dtype problem is the same on the CPU
epoch = 0
'''
CELL = '''
val_loss = validate(val_loader, ema_model, criterion, epoch, use_cuda, mode='Valid Stats')
'''
EXPECT_ERROR = ("expected target dtype", "not implemented for 'Int'", "expected scalar type Long")
CULPRITS = ["val_loader"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            # compute output\n            outputs = model(inputs)\n",
    "            targets = targets.type(torch.LongTensor)\n            # compute output\n            outputs = model(inputs)\n",
)
CLEAN = False
