"""Multi-class focal loss whose class weights `alpha` live inside an `nn.NLLLoss` submodule, so `criterion.to(device)` moves them.

Source: https://github.com/AdeelH/pytorch-multi-class-focal-loss/blob/master/focal_loss.py
`FocalLoss(alpha=..., gamma=..., ignore_index=...)` stores `alpha` as the `weight` of an internal
`nn.NLLLoss` (a registered buffer), indexes `log_p[all_rows, y]` with a CPU `torch.arange(len(x))`
(CPU indices into a device tensor are allowed), and filters out `ignore_index`. Look-alike: class weights
built on the CPU from counts and an index tensor made without a device, all legitimate because the
criterion was moved and indexing accepts CPU indices.
Stand-in: the repo's FocalLoss (2-D inputs only; its `y != ignore_index` boolean-mask filtering is left
out, the batch has no ignored labels) and a linear classifier; "meta" stands for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class FocalLoss(nn.Module):
    def __init__(self, alpha=None, gamma=0., reduction='mean', ignore_index=-100):
        super().__init__()
        self.alpha, self.gamma = alpha, gamma
        self.ignore_index, self.reduction = ignore_index, reduction
        self.nll_loss = nn.NLLLoss(weight=alpha, reduction='none', ignore_index=ignore_index)

    def forward(self, x, y):
        log_p = F.log_softmax(x, dim=-1)
        ce = self.nll_loss(log_p, y)
        all_rows = torch.arange(len(x))
        log_pt = log_p[all_rows, y]
        pt = log_pt.exp()
        focal_term = (1 - pt) ** self.gamma
        loss = focal_term * ce
        if self.reduction == 'mean':
            loss = loss.mean()
        return loss

device = torch.device("meta")          # "cuda" in training
class_counts = torch.tensor([500., 120., 40., 15.])
alpha = class_counts.sum() / (len(class_counts) * class_counts)
model = nn.Linear(16, 4).to(device)
criterion = FocalLoss(alpha=alpha, gamma=2.0).to(device)
x = torch.randn(32, 16, device=device)
y = torch.randint(0, 4, (32,), device=device)
'''
CELL = '''
logits = model(x)
loss = criterion(logits, y)
print(loss.shape, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
