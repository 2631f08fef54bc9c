"""torchvision segmentation reference: an int64 confusion matrix filled by bincount, metrics computed on a float copy.

Source: https://github.com/pytorch/vision/blob/main/references/segmentation/utils.py
`ConfusionMatrix.update(a, b)` creates `self.mat` lazily with `dtype=torch.int64, device=a.device`,
indexes with `n * a[k].to(torch.int64) + b[k]` and adds a `torch.bincount` of int64 counts;
`compute()` converts with `h = self.mat.float()` before dividing. Look-alike: int64 state, uint8/int64
targets and float predictions side by side, all deliberate; `evaluate` runs as in the reference script
(here on the CPU).
Stand-in: a tiny segmentation model in place of the torchvision model zoo.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ConfusionMatrix:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.mat = None

    def update(self, a, b):
        n = self.num_classes
        if self.mat is None:
            self.mat = torch.zeros((n, n), dtype=torch.int64, device=a.device)
        with torch.inference_mode():
            k = (a >= 0) & (a < n)
            inds = n * a[k].to(torch.int64) + b[k]
            self.mat += torch.bincount(inds, minlength=n**2).reshape(n, n)

    def compute(self):
        h = self.mat.float()
        acc_global = torch.diag(h).sum() / h.sum()
        acc = torch.diag(h) / h.sum(1)
        iu = torch.diag(h) / (h.sum(1) + h.sum(0) - torch.diag(h))
        return acc_global, acc, iu

num_classes = 4
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, num_classes, 1))
device = torch.device("cpu")
data_loader = [(torch.rand(2, 3, 16, 16), torch.randint(0, num_classes, (2, 16, 16), dtype=torch.uint8))
               for _ in range(3)]
'''
CELL = '''
model.eval()
confmat = ConfusionMatrix(num_classes)
with torch.inference_mode():
    for image, target in data_loader:
        image, target = image.to(device), target.to(device)
        output = model(image)
        confmat.update(target.flatten(), output.argmax(1).flatten())
acc_global, acc, iu = confmat.compute()
print(acc_global.item(), iu.mean().item())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
