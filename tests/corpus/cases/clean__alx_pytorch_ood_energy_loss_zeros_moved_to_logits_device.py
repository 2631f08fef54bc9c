"""pytorch-ood `EnergyRegularizedLoss` after the fix: the energy buffer is created with `.to(logits.device)`; OOD targets are `-1` integers.

Source: https://github.com/kkirchheim/pytorch-ood/commit/5075d766f1b78ee3b0e30d5d47e2838042eaf9fd
"Various Improvements and Bugfixes" changed `_regularization` to
`energy = torch.zeros(logits.shape[0]).to(logits.device)`, so the squared-hinge energy margins for IN
(`y >= 0`) and OOD (`y == -1`) samples are written into a tensor on the logits' device; the margins are
Python floats. Look-alike: a tensor created inside a loss helper (usually the bug) that is put on the
right device, next to negative "unknown" labels. Stand-in: the loss with the masked assignments written
as `torch.where` (same values) so the meta device can play cuda, and a small classifier trained one step.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def is_known(labels):
    return labels >= 0

def _energy(logits):
    return -torch.logsumexp(logits, dim=1)

class EnergyRegularizedLoss(nn.Module):
    def __init__(self, alpha=1.0, margin_in=1.0, margin_out=1.0):
        super().__init__()
        self.m_in, self.m_out, self.alpha = margin_in, margin_out, alpha

    def forward(self, logits, targets):
        regularization = self._regularization(logits, targets)
        nll = F.cross_entropy(logits, targets.clamp(min=0), reduction="none") * is_known(targets)
        return (nll + self.alpha * regularization).mean()

    def _regularization(self, logits, y):
        energy = torch.zeros(logits.shape[0]).to(logits.device)
        known = is_known(y)
        e = _energy(logits)
        energy = torch.where(known, (e - self.m_in).relu().pow(2), energy)
        energy = torch.where(~known, (self.m_out - e).relu().pow(2), energy)
        return energy

device = "meta"          # "cuda" on a GPU machine
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = EnergyRegularizedLoss(alpha=0.1, margin_in=-7.0, margin_out=-5.0)
x = torch.randn(16, 32, device=device)
y = torch.cat([torch.randint(0, 10, (8,)), torch.full((8,), -1)]).to(device)
'''
CELL = '''
optimizer.zero_grad()
loss = criterion(model(x), y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
