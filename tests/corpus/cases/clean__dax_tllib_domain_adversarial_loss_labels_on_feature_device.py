"""Look-alike: tllib's DomainAdversarialLoss builds its domain labels inside forward, on the features' device.

Source: https://github.com/thuml/Transfer-Learning-Library/blob/master/tllib/alignment/dann.py
`DomainAdversarialLoss.forward` concatenates source/target features, passes them through a
`WarmStartGradientReverseLayer` (whose coefficient is a plain Python/numpy float) and the discriminator,
then creates `d_label_s = torch.ones((f_s.size(0), 1)).to(f_s.device)` and
`d_label_t = torch.zeros((f_t.size(0), 1)).to(f_t.device)` and weights from `torch.ones_like`. New
tensors in a loss's forward next to a GPU model look suspicious, but every one follows the features.
Stand-in: tllib's GRL, a DomainDiscriminator MLP, a small backbone; GPU simulated (fake cuda:0),
evaluation of the loss only (discriminator in eval mode: the simulator has no
fake-cuda BatchNorm training kernel).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

class GradientReverseFunction(Function):
    @staticmethod
    def forward(ctx, input, coeff=1.):
        ctx.coeff = coeff
        return input * 1.0

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.coeff, None

class WarmStartGradientReverseLayer(nn.Module):
    def __init__(self, alpha=1.0, lo=0.0, hi=1., max_iters=1000, auto_step=False):
        super().__init__()
        self.alpha, self.lo, self.hi = alpha, lo, hi
        self.iter_num, self.max_iters, self.auto_step = 0, max_iters, auto_step

    def forward(self, input):
        coeff = float(2.0 * (self.hi - self.lo) / (1.0 + np.exp(-self.alpha * self.iter_num / self.max_iters))
                      - (self.hi - self.lo) + self.lo)
        if self.auto_step:
            self.iter_num += 1
        return GradientReverseFunction.apply(input, coeff)

class DomainDiscriminator(nn.Sequential):
    def __init__(self, in_feature, hidden_size):
        super().__init__(nn.Linear(in_feature, hidden_size), nn.BatchNorm1d(hidden_size), nn.ReLU(),
                         nn.Linear(hidden_size, hidden_size), nn.BatchNorm1d(hidden_size), nn.ReLU(),
                         nn.Linear(hidden_size, 1), nn.Sigmoid())

class DomainAdversarialLoss(nn.Module):
    def __init__(self, domain_discriminator, reduction='mean', grl=None, sigmoid=True):
        super().__init__()
        self.grl = WarmStartGradientReverseLayer(alpha=1., lo=0., hi=1., max_iters=1000, auto_step=True) if grl is None else grl
        self.domain_discriminator = domain_discriminator
        self.sigmoid = sigmoid
        self.reduction = reduction

    def forward(self, f_s, f_t, w_s=None, w_t=None):
        f = self.grl(torch.cat((f_s, f_t), dim=0))
        d = self.domain_discriminator(f)
        d_s, d_t = d.chunk(2, dim=0)
        d_label_s = torch.ones((f_s.size(0), 1)).to(f_s.device)
        d_label_t = torch.zeros((f_t.size(0), 1)).to(f_t.device)
        if w_s is None:
            w_s = torch.ones_like(d_label_s)
        if w_t is None:
            w_t = torch.ones_like(d_label_t)
        return 0.5 * (F.binary_cross_entropy(d_s, d_label_s, weight=w_s.view_as(d_s), reduction=self.reduction) +
                      F.binary_cross_entropy(d_t, d_label_t, weight=w_t.view_as(d_t), reduction=self.reduction))

device = torch.device("cuda:0")
backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU()).to(device)
domain_discri = DomainDiscriminator(in_feature=64, hidden_size=64).to(device)
domain_adv = DomainAdversarialLoss(domain_discri).to(device)
domain_adv.eval()                       # evaluating the transfer loss on a held-out batch
x_s = torch.randn(8, 32).to(device)
x_t = torch.randn(8, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    f_s, f_t = backbone(x_s), backbone(x_t)
    transfer_loss = domain_adv(f_s, f_t)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
