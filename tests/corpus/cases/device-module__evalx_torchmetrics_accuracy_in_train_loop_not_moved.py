"""torchmetrics: `metric = torchmetrics.Accuracy()` built in the audio train loop and never moved, fed CUDA outputs and labels.

Source: https://github.com/Lightning-AI/torchmetrics/issues/608
The user's train_loop (CNN14 audio classifier, AMP) moves `img`/`label` to 'cuda:0', computes
`out = torch.softmax(yhat, dim=1)` and calls `train_step_acc = metric(out, label)` on a
`torchmetrics.Accuracy()` created on the CPU, and got "Expected all tensors to be on the same device"
although "both tensors are on the same device". The maintainers: a Metric is an nn.Module whose states
live on its own device; it must be moved like the model (`metric = torchmetrics.Accuracy().to(device)`).
Stand-in: a Metric with `add_state` tensors registered as buffers and an argmax accuracy update.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Metric(nn.Module):
    def add_state(self, name, default):
        self.register_buffer(name, default)

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

class Accuracy(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("correct", torch.zeros(1))
        self.add_state("total", torch.zeros(1))

    def update(self, preds, target):
        preds = preds.argmax(dim=1)
        self.correct += (preds == target).sum(dim=0, keepdim=True)
        self.total += torch.ones_like(target).sum(dim=0, keepdim=True)

    def compute(self):
        return self.correct / self.total

class CNN14_mod(nn.Module):
    def __init__(self, n_mels=64, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(1, 16, 3, padding=1)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3)))

device = "cuda:0"
model = CNN14_mod().to(device)
metric = Accuracy()
img = torch.randn(8, 1, 64, 100).to(device).float()
label = torch.randint(0, 10, (8,)).to(device).long()
'''
CELL = '''
with torch.no_grad():
    yhat = model(img)
    out = torch.softmax(yhat, dim=1)
    train_step_acc = metric(out, label)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["metric"]
FIX = "namespace"
REFERENCE_FIX = '''
metric = metric.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
