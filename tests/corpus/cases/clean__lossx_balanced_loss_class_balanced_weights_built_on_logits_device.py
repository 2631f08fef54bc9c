"""balanced-loss `Loss(class_balanced=True)`: numpy effective-number weights turned into a tensor on the logits' device.

Source: https://github.com/fcakyon/balanced-loss/blob/20f37793d31cdbcac983e036b6bfb57066bf8618/balanced_loss/losses.py
The maintained fork of the Class-Balanced Loss computes the per-class weights with numpy in
`forward` (`effective_num = 1.0 - np.power(self.beta, self.samples_per_class)`) and builds them with
`torch.tensor(weights, device=logits.device).float()` before multiplying by the one-hot labels, so
a CPU-only `samples_per_class` list and a loss module that holds no tensors work with cuda logits.
Look-alike: numpy-derived weights created inside the loss call; it runs.
Stand-in: the package's `Loss`/`focal_loss` (copied in shape) and a small classifier on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

def focal_loss(logits, labels, alpha=None, gamma=2):
    bc_loss = F.binary_cross_entropy_with_logits(input=logits, target=labels, reduction="none")
    if gamma == 0.0:
        modulator = 1.0
    else:
        modulator = torch.exp(-gamma * labels * logits - gamma * torch.log(1 + torch.exp(-1.0 * logits)))
    loss = modulator * bc_loss
    if alpha is not None:
        focal_loss = torch.sum(alpha * loss)
    else:
        focal_loss = torch.sum(loss)
    focal_loss /= torch.sum(labels)
    return focal_loss

class Loss(torch.nn.Module):
    def __init__(self, loss_type="cross_entropy", beta=0.999, fl_gamma=2, samples_per_class=None,
                 class_balanced=False, safe=False):
        super().__init__()
        if class_balanced is True and samples_per_class is None:
            raise ValueError("samples_per_class cannot be None when class_balanced is True")
        self.loss_type = loss_type
        self.beta = beta
        self.fl_gamma = fl_gamma
        self.samples_per_class = samples_per_class
        self.class_balanced = class_balanced
        self.safe = safe

    def forward(self, logits, labels):
        batch_size = logits.size(0)
        num_classes = logits.size(1)
        labels_one_hot = F.one_hot(labels, num_classes).float()
        if self.class_balanced:
            effective_num = 1.0 - np.power(self.beta, self.samples_per_class)
            effective_num_classes = num_classes
            weights = (1.0 - self.beta) / np.array(effective_num)
            weights = weights / np.sum(weights) * effective_num_classes
            weights = torch.tensor(weights, device=logits.device).float()
            if self.loss_type != "cross_entropy":
                weights = weights.unsqueeze(0)
                weights = weights.repeat(batch_size, 1) * labels_one_hot
                weights = weights.sum(1)
                weights = weights.unsqueeze(1)
                weights = weights.repeat(1, num_classes)
        else:
            weights = None
        if self.loss_type == "focal_loss":
            cb_loss = focal_loss(logits, labels_one_hot, alpha=weights, gamma=self.fl_gamma)
        elif self.loss_type == "cross_entropy":
            cb_loss = F.cross_entropy(input=logits, target=labels_one_hot, weight=weights)
        elif self.loss_type == "binary_cross_entropy":
            cb_loss = F.binary_cross_entropy_with_logits(input=logits, target=labels_one_hot, weight=weights)
        return cb_loss

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
focal = Loss(loss_type="focal_loss", samples_per_class=[30, 100, 8, 55, 12], class_balanced=True)
ce = Loss(loss_type="cross_entropy", samples_per_class=[30, 100, 8, 55, 12], class_balanced=True)
x = torch.randn(10, 16, device=device)
labels = torch.randint(0, 5, (10,), device=device)
'''
CELL = '''
logits = model(x)
loss = focal(logits, labels) + ce(logits, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
