"""Look-alike: gradient-reversal `ReverseLayerF` keeps a host-side numpy scalar on `ctx` and multiplies the device `grad_output` by it in backward.

Source: https://github.com/declare-lab/MISA/blob/master/src/utils/functions.py
`ReverseLayerF(Function)`: `forward(ctx, x, p)` stores `ctx.p = p` and returns `x.view_as(x)`;
`backward` returns `grad_output.neg() * ctx.p, None`. In a DANN-style training step the coefficient
is the usual schedule `2. / (1. + np.exp(-10 * p)) - 1`, a numpy float64 scalar that never goes to the
GPU, and the domain labels are made with `torch.zeros(batch_size).long()` then moved to the device.
A Python/numpy scalar in a custom Function's backward is fine: nothing to report.
Stand-in: a small feature extractor + class and domain heads around the repo's ReverseLayerF.
SIM "meta": meta stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Function

class ReverseLayerF(Function):

    @staticmethod
    def forward(ctx, x, p):
        ctx.p = p

        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.p

        return output, None

class CNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
        self.class_classifier = nn.Linear(64, 10)
        self.domain_classifier = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        class_output = self.class_classifier(feature)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output

device = torch.device("meta")            # cuda
my_net = CNNModel().to(device)
optimizer = torch.optim.Adam(my_net.parameters(), lr=1e-3)
loss_class = nn.CrossEntropyLoss().to(device)
loss_domain = nn.CrossEntropyLoss().to(device)

batch_size = 8
i, len_dataloader, epoch, n_epoch = 3, 100, 2, 100
s_img = torch.randn(batch_size, 32).to(device)
s_label = torch.randint(0, 10, (batch_size,)).to(device)
'''
CELL = '''
p = float(i + epoch * len_dataloader) / n_epoch / len_dataloader
alpha = 2. / (1. + np.exp(-10 * p)) - 1

domain_label = torch.zeros(batch_size).long()
domain_label = domain_label.to(device)

my_net.zero_grad()
class_output, domain_output = my_net(input_data=s_img, alpha=alpha)
err_s_label = loss_class(class_output, s_label)
err_s_domain = loss_domain(domain_output, domain_label)
err = err_s_domain + err_s_label
err.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
