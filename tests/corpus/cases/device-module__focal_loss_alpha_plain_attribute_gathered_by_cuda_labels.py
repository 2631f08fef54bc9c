"""Standalone focal-loss criterion: its class-balance `alpha` is a plain CPU tensor gathered with CUDA labels.

Source: https://github.com/yatengLG/Focal-Loss-Pytorch/issues/17
"Expected object of backend CPU but got backend CUDA for argument #3 'index'" at
`alpha = self.alpha.gather(0, labels.view(-1))`: the criterion keeps `self.alpha = torch.Tensor(...)`
as an ordinary attribute (not a buffer), the user created it once and called it on GPU predictions
and labels; nothing ever moved `alpha`. Stand-in: the repository's `focal_loss` class, reduced.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class focal_loss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2, num_classes=3, size_average=True):
        super().__init__()
        self.size_average = size_average
        if isinstance(alpha, list):
            self.alpha = torch.Tensor(alpha)
        else:
            self.alpha = torch.zeros(num_classes)
            self.alpha[0] += alpha
            self.alpha[1:] += (1 - alpha)
        self.gamma = gamma

    def forward(self, preds, labels):
        preds = preds.view(-1, preds.size(-1))
        preds_logsoft = F.log_softmax(preds, dim=1)
        preds_softmax = torch.exp(preds_logsoft)
        preds_softmax = preds_softmax.gather(1, labels.view(-1, 1))
        preds_logsoft = preds_logsoft.gather(1, labels.view(-1, 1))
        alpha = self.alpha.gather(0, labels.view(-1))
        loss = -torch.mul(torch.pow((1 - preds_softmax), self.gamma), preds_logsoft)
        loss = torch.mul(alpha, loss.t())
        return loss.mean() if self.size_average else loss.sum()

device = torch.device("cuda:0")
model = nn.Linear(16, 3).to(device)
criterion = focal_loss(alpha=[1.0, 2.0, 2.0], gamma=2, num_classes=3)
inputs = torch.randn(8, 16).to(device)
labels = torch.randint(0, 3, (8,)).to(device)
'''
CELL = '''
preds = model(inputs)
loss = criterion(preds, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion.alpha"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion.alpha = criterion.alpha.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
