"""torch-uncertainty deep evidential classification loss on a GPU: KL regulariser's `ones` made on the evidence's device, epoch kept as a Python int.

Source: https://github.com/torch-uncertainty/torch-uncertainty/pull/56
The PR adding evidential classification (DECLoss) builds the uniform Dirichlet in `_kldiv_reg` with
`torch.ones([1, self.num_classes], dtype=torch.float32, device=evidence.device)`, one-hot encodes the
integer targets, and anneals the KL weight with a Python-side epoch counter. Look-alike: tensors
created inside a loss's helper (usually a device bug) that are given the right device, beside
integer targets, on a GPU model. Stand-in: the loss (MSE variant + KL term) and a linear classifier.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn, Tensor

class DECLoss(nn.Module):
    def __init__(self, num_classes, annealing_step=10, reg_weight=None):
        super().__init__()
        self.num_classes = num_classes
        self.annealing_step = annealing_step
        self.reg_weight = reg_weight
    def _mse_loss(self, evidence: Tensor, targets: Tensor) -> Tensor:
        evidence = torch.relu(evidence)
        alpha = evidence + 1.0
        strength = torch.sum(alpha, dim=1, keepdim=True)
        loglikelihood_err = torch.sum((targets - (alpha / strength)) ** 2, dim=1, keepdim=True)
        loglikelihood_var = torch.sum(alpha * (strength - alpha) / (strength * strength * (strength + 1)),
                                      dim=1, keepdim=True)
        return loglikelihood_err + loglikelihood_var
    def _kldiv_reg(self, evidence: Tensor, targets: Tensor) -> Tensor:
        evidence = torch.relu(evidence)
        alpha = evidence + 1.0
        kl_alpha = (alpha - 1) * (1 - targets) + 1
        ones = torch.ones([1, self.num_classes], dtype=torch.float32, device=evidence.device)
        sum_kl_alpha = torch.sum(kl_alpha, dim=1, keepdim=True)
        first_term = (torch.lgamma(sum_kl_alpha) - torch.lgamma(kl_alpha).sum(dim=1, keepdim=True)
                      + torch.lgamma(ones).sum(dim=1, keepdim=True) - torch.lgamma(ones.sum(dim=1, keepdim=True)))
        second_term = torch.sum((kl_alpha - ones) * (torch.digamma(kl_alpha) - torch.digamma(sum_kl_alpha)),
                                dim=1, keepdim=True)
        return first_term + second_term
    def forward(self, evidence: Tensor, targets: Tensor, current_epoch: int) -> Tensor:
        targets = F.one_hot(targets, num_classes=self.num_classes)
        loss_dirichlet = self._mse_loss(evidence, targets)
        reg_weight = min(1.0, current_epoch / self.annealing_step) if self.reg_weight is None else self.reg_weight
        return (loss_dirichlet + reg_weight * self._kldiv_reg(evidence, targets)).mean()

device = torch.device("cuda:0")
model = nn.Linear(2, 4).to(device)
criterion = DECLoss(num_classes=4)
inputs = torch.randn(16, 2, device=device)
targets = torch.randint(0, 4, (16,), device=device)
current_epoch = 3
'''
CELL = '''
with torch.no_grad():
    loss = criterion(model(inputs), targets, current_epoch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
