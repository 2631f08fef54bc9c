"""SpatialAttentionGAN train.py: `labels.to(device).type_as(reals)` in a tuple assignment sends the labels back to the CPU.

Source: https://github.com/elvisyjlin/SpatialAttentionGAN/issues/1
train.py did `reals, labels = reals.to(device), labels.to(device).type_as(reals)`. The right-hand side
is evaluated before `reals` is rebound, so `type_as` sees the CPU `reals` and converts the cuda labels
back to a CPU FloatTensor; `G(reals, target_labels)` then failed in `torch.cat((x, a), dim=1)` of the
attention mask network. The author explained this and changed it to `labels.type_as(reals).to(device)`.
Generator (AMN + SAN) is a small stand-in with the same concatenation of image and tiled labels.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class AMN(nn.Module):
    def __init__(self, n_attrs, dim=8):
        super(AMN, self).__init__()
        self.net = nn.Sequential(nn.Conv2d(3 + n_attrs, dim, 3, 1, 1), nn.InstanceNorm2d(dim, affine=True),
                                 nn.ReLU(), nn.Conv2d(dim, 3, 3, 1, 1), nn.Tanh())
    def forward(self, x, a):
        a = a.view(a.size(0), a.size(1), 1, 1)
        a = a.repeat(1, 1, x.size(2), x.size(3))
        x = torch.cat((x, a), dim=1)
        return self.net(x)

class SAN(nn.Module):
    def __init__(self, n_attrs, dim=8):
        super(SAN, self).__init__()
        self.net = nn.Sequential(nn.Conv2d(3 + n_attrs, dim, 3, 1, 1), nn.InstanceNorm2d(dim, affine=True),
                                 nn.ReLU(), nn.Conv2d(dim, 1, 3, 1, 1), nn.Sigmoid())
    def forward(self, x, a):
        a = a.view(a.size(0), a.size(1), 1, 1)
        a = a.repeat(1, 1, x.size(2), x.size(3))
        x = torch.cat((x, a), dim=1)
        return self.net(x)

class Generator(nn.Module):
    def __init__(self, n_attrs):
        super(Generator, self).__init__()
        self.AMN = AMN(n_attrs)
        self.SAN = SAN(n_attrs)
    def forward(self, x, a):
        y = self.AMN(x, a)
        m = self.SAN(x, a)
        y = y * m + x * (1 - m)
        return y, m

device = torch.device("cuda:0")
n_attrs = 5
G = Generator(n_attrs).to(device)
reals = torch.randn(4, 3, 16, 16)                 # one batch of train_dataloader
labels = torch.randint(0, 2, (4, n_attrs))
reals, labels = reals.to(device), labels.to(device).type_as(reals)
target_labels = labels[torch.randperm(labels.size(0))]
'''
CELL = '''
G.train()
fakes, _ = G(reals, target_labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.to(device)
target_labels = target_labels.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
