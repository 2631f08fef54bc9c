"""Class-Balanced Loss (`CB_loss`) on the GPU: the per-class weights are built as a CPU tensor.

Source: https://github.com/vandit15/Class-balanced-loss-pytorch/pull/22
The repository's `CB_loss(labels, logits, samples_per_cls, no_of_classes, loss_type, beta, gamma)`
computes the effective-number weights with numpy, turns them into `torch.tensor(weights).float()`
(CPU) and multiplies them by `F.one_hot(labels, ...)`, which lives on the labels' device; with GPU
labels/logits the call dies with a cpu/cuda mismatch. The PR ("Make it available on GPU device")
takes the device of `labels`/`logits` and moves `weights` to it.
Stand-in: the repository's `CB_loss`/`focal_loss` (the module is a plain script, copied in shape),
a small classifier on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

def focal_loss(labels, logits, alpha, gamma):
    BCLoss = F.binary_cross_entropy_with_logits(input=logits, target=labels, reduction="none")
    if gamma == 0.0:
        modulator = 1.0
    else:
        modulator = torch.exp(-gamma * labels * logits - gamma * torch.log(1 + torch.exp(-1.0 * logits)))
    loss = modulator * BCLoss
    weighted_loss = alpha * loss
    focal_loss = torch.sum(weighted_loss)
    focal_loss /= torch.sum(labels)
    return focal_loss

def CB_loss(labels, logits, samples_per_cls, no_of_classes, loss_type, beta, gamma):
    effective_num = 1.0 - np.power(beta, samples_per_cls)
    weights = (1.0 - beta) / np.array(effective_num)
    weights = weights / np.sum(weights) * no_of_classes

    labels_one_hot = F.one_hot(labels, no_of_classes).float()

    weights = torch.tensor(weights).float()
    weights = weights.unsqueeze(0)
    weights = weights.repeat(labels_one_hot.shape[0], 1) * labels_one_hot
    weights = weights.sum(1)
    weights = weights.unsqueeze(1)
    weights = weights.repeat(1, no_of_classes)

    if loss_type == "focal":
        cb_loss = focal_loss(labels_one_hot, logits, weights, gamma)
    elif loss_type == "sigmoid":
        cb_loss = F.binary_cross_entropy_with_logits(input=logits, target=labels_one_hot, weight=weights)
    elif loss_type == "softmax":
        pred = logits.softmax(dim=1)
        cb_loss = F.binary_cross_entropy(input=pred, target=labels_one_hot, weight=weights)
    return cb_loss

device = torch.device("cuda:0")
no_of_classes = 5
samples_per_cls = [200, 300, 10, 25, 40]
beta, gamma = 0.9999, 2.0
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, no_of_classes)).to(device)
x = torch.randn(10, 16, device=device)
labels = torch.randint(0, no_of_classes, (10,), device=device)
'''
CELL = '''
logits = model(x)
cb_loss = CB_loss(labels, logits, samples_per_cls, no_of_classes, "focal", beta, gamma)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["CB_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("weights = torch.tensor(weights).float()",
                  "weights = torch.tensor(weights).float().to(labels.device)")
CLEAN = False
