"""pytorch-ood `EnergyRegularizedLoss` on a GPU model: the per-sample energy term is built with `torch.zeros(n)` on the CPU.

Source: https://github.com/kkirchheim/pytorch-ood/issues/3
The user trained an outlier-exposure classifier on a GPU with `EnergyRegularizedLoss` and noted that
`energy` in `_regularization` "is not moved to the device", so the loss only worked if they switched
things back and forth by hand (`EntropicOpenSetLoss` worked). The maintainer confirmed it; the fix
(commit 5075d76, "Various Improvements and Bugfixes") writes `torch.zeros(logits.shape[0]).to(logits.device)`.
Stand-in: the loss as of v0.1.x (cross-entropy for known samples, squared-hinge energy margins for
IN/OOD samples, `-1` targets = OOD); the masked assignments `energy[known] = ...` are written as
`torch.where(known, ..., energy)` (same values) so the meta device can stand in for cuda.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def is_known(labels):
    return labels >= 0

def _energy(logits):
    return -torch.logsumexp(logits, dim=1)

def cross_entropy(logits, targets, reduction="none"):
    known = is_known(targets)
    return F.cross_entropy(logits, targets.clamp(min=0), reduction="none") * known

class EnergyRegularizedLoss(nn.Module):
    def __init__(self, alpha=1.0, margin_in=1.0, margin_out=1.0, reduction="mean"):
        super().__init__()
        self.m_in = margin_in
        self.m_out = margin_out
        self.alpha = alpha
        self.reduction = reduction

    def forward(self, logits, targets):
        regularization = self._regularization(logits, targets)
        nll = cross_entropy(logits, targets, reduction="none")
        return (nll + self.alpha * regularization).mean()

    def _regularization(self, logits, y):
        energy = torch.zeros(logits.shape[0])
        known = is_known(y)
        e = _energy(logits)
        energy = torch.where(known, (e - self.m_in).relu().pow(2), energy)
        energy = torch.where(~known, (self.m_out - e).relu().pow(2), energy)
        return energy

device = "meta"          # "cuda" in the report
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
criterion = EnergyRegularizedLoss(alpha=0.1, margin_in=-7.0, margin_out=-5.0)
x = torch.randn(16, 32, device=device)
y = torch.cat([torch.randint(0, 10, (8,)), torch.full((8,), -1)]).to(device)
'''
CELL = '''
logits = model(x)
loss = criterion(logits, y)
loss.backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("energy = torch.zeros(logits.shape[0])",
                  "energy = torch.zeros(logits.shape[0]).to(logits.device)")
CLEAN = False
