"""dlordinal's BinomialLoss keeps its soft-label table as a buffer; the loss module was never moved.

Source: https://github.com/ayrna/dlordinal/issues/157
"[Question] CustomTargetsLoss target on 'cpu' (v2.6)": with `y_true` and `y_pred` on cuda,
`CustomTargetsLoss.forward` failed at `y_prob = self.get_buffer("cls_probs")[target]` with
"indices should be either on cpu or on the same device as the indexed tensor (cpu)". The
`cls_probs` buffer is built on the CPU in `BinomialLoss.__init__`; it is a registered buffer, so
moving the loss module (`loss_fn.to(device)`) puts it next to the targets - that fix is my choice
(the reporter suggested a `device` argument). Stand-ins: the two loss classes. NB: the stand-in
writes the row gather `cls_probs[target]` as `index_select(0, target)` (advanced indexing has no
fake-cuda kernel), so the message is the generic device one.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn
from torch.nn.functional import one_hot

def get_binomial_soft_labels(J):
    probs = []
    for true_class in range(J):
        p = (true_class + 0.5) / J
        probs.append([math.comb(J - 1, k) * p ** k * (1 - p) ** (J - 1 - k) for k in range(J)])
    return probs

class CustomTargetsLoss(nn.Module):
    """dlordinal.losses.CustomTargetsLoss (stand-in)."""

    def __init__(self, base_loss, cls_probs, eta=1.0):
        super().__init__()
        self.base_loss = base_loss
        self.eta = eta
        self.num_classes = cls_probs.shape[0]
        self.register_buffer("cls_probs", cls_probs)

    def forward(self, input, target):
        y_prob = self.get_buffer("cls_probs").index_select(0, target)
        target_oh = one_hot(target, self.num_classes)
        y_true = (1.0 - self.eta) * target_oh + self.eta * y_prob
        return self.base_loss(input, y_true)

class BinomialLoss(CustomTargetsLoss):
    def __init__(self, base_loss, num_classes, eta=1.0):
        cls_probs = torch.tensor(get_binomial_soft_labels(num_classes)).float()
        super().__init__(base_loss=base_loss, cls_probs=cls_probs, eta=eta)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
loss_fn = BinomialLoss(base_loss=nn.CrossEntropyLoss(), num_classes=5)
x = torch.randn(8, 16).to(device)
y_true = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2]).to(device)
y_pred = model(x)
'''
CELL = '''
loss = loss_fn(y_pred, y_true)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["loss_fn"]
FIX = "namespace"
REFERENCE_FIX = '''
loss_fn = loss_fn.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
