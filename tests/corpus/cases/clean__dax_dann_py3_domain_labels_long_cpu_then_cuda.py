"""Look-alike: DANN_py3 builds the domain labels as CPU LongTensors and moves them with the batch before the loss.

Source: https://github.com/fungtion/DANN_py3/blob/master/main.py
The training loop makes `domain_label = torch.zeros(batch_size).long()` (then `torch.ones(...)` for the
target batch) on the CPU, and under `if cuda:` moves `s_img`, `s_label`, `domain_label` with `.cuda()`
before `my_net(input_data=s_img, alpha=alpha)`; `alpha` is a Python float fed to the `ReverseLayerF`
gradient-reversal Function, and the losses are `NLLLoss` on log-softmax outputs. CPU-made labels and a
float alpha next to a GPU model look suspicious, but each is moved or a scalar. Stand-in: the CNNModel
with ReverseLayerF on small inputs, one source/target step; meta plays the GPU (`.cuda()` written
`.to(device)`).
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
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None

class CNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = nn.Sequential(nn.Conv2d(3, 8, 5), nn.BatchNorm2d(8), nn.MaxPool2d(2), nn.ReLU(True), nn.Flatten())
        self.class_classifier = nn.Sequential(nn.Linear(8 * 12 * 12, 32), nn.ReLU(True), nn.Linear(32, 10), nn.LogSoftmax(dim=1))
        self.domain_classifier = nn.Sequential(nn.Linear(8 * 12 * 12, 32), nn.ReLU(True), nn.Linear(32, 2), nn.LogSoftmax(dim=1))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data.expand(input_data.data.shape[0], 3, 28, 28))
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        return self.class_classifier(feature), self.domain_classifier(reverse_feature)

cuda = True
device = torch.device("meta")            # .cuda() on the user's machine
my_net = CNNModel()
optimizer = torch.optim.Adam(my_net.parameters(), lr=1e-3)
loss_class = torch.nn.NLLLoss()
loss_domain = torch.nn.NLLLoss()
if cuda:
    my_net = my_net.to(device)
    loss_class = loss_class.to(device)
    loss_domain = loss_domain.to(device)
data_source = (torch.randn(4, 3, 28, 28), torch.randint(0, 10, (4,)))
data_target = (torch.randn(4, 3, 28, 28), torch.randint(0, 10, (4,)))
i, len_dataloader, epoch, n_epoch = 0, 10, 0, 100
'''
CELL = '''
p = float(i + epoch * len_dataloader) / n_epoch / len_dataloader
alpha = 2. / (1. + np.exp(-10 * p)) - 1

s_img, s_label = data_source
my_net.zero_grad()
batch_size = len(s_label)
domain_label = torch.zeros(batch_size).long()
if cuda:
    s_img = s_img.to(device)
    s_label = s_label.to(device)
    domain_label = domain_label.to(device)
class_output, domain_output = my_net(input_data=s_img, alpha=alpha)
err_s_label = loss_class(class_output, s_label)
err_s_domain = loss_domain(domain_output, domain_label)

t_img, _ = data_target
domain_label = torch.ones(batch_size).long()
if cuda:
    t_img = t_img.to(device)
    domain_label = domain_label.to(device)
_, domain_output = my_net(input_data=t_img, alpha=alpha)
err_t_domain = loss_domain(domain_output, domain_label)
err = err_t_domain + err_s_domain + err_s_label
err.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
