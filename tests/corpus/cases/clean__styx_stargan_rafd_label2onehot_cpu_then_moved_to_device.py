"""Look-alike: StarGAN (RaFD) builds one-hot domain labels on the CPU with `label2onehot`, then moves them.

Source: https://github.com/yunjey/stargan/blob/master/solver.py
`Solver.label2onehot` writes `out = torch.zeros(batch_size, dim)` on the CPU and indexes it with a
numpy range; `train()` then moves `x_real`, `c_org`, `c_trg`, `label_org` and `label_trg` to
`self.device` before `self.D(x_real)` and `self.G(x_real, c_trg)`. The CPU tensors in the cell are the
loader's batch and the freshly built one-hot labels, all moved before use. Generator/Discriminator
are small stand-ins with StarGAN's shapes (the label map is tiled and concatenated to the image).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

class Generator(nn.Module):
    """Stand-in for StarGAN's Generator: concat the tiled label to the image, conv stack."""
    def __init__(self, conv_dim=8, c_dim=8):
        super(Generator, self).__init__()
        self.main = nn.Sequential(nn.Conv2d(3 + c_dim, conv_dim, 7, 1, 3, bias=False),
                                  nn.InstanceNorm2d(conv_dim, affine=True),
                                  nn.ReLU(inplace=True),
                                  nn.Conv2d(conv_dim, 3, 7, 1, 3, bias=False), nn.Tanh())

    def forward(self, x, c):
        c = c.view(c.size(0), c.size(1), 1, 1)
        c = c.repeat(1, 1, x.size(2), x.size(3))
        x = torch.cat([x, c], dim=1)
        return self.main(x)

class Discriminator(nn.Module):
    """Stand-in for StarGAN's PatchGAN discriminator with an auxiliary classifier."""
    def __init__(self, image_size=16, conv_dim=8, c_dim=8):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(nn.Conv2d(3, conv_dim, 4, 2, 1), nn.LeakyReLU(0.01),
                                  nn.Conv2d(conv_dim, conv_dim * 2, 4, 2, 1), nn.LeakyReLU(0.01))
        self.conv1 = nn.Conv2d(conv_dim * 2, 1, 3, 1, 1, bias=False)
        self.conv2 = nn.Conv2d(conv_dim * 2, c_dim, image_size // 4, bias=False)

    def forward(self, x):
        h = self.main(x)
        out_src = self.conv1(h)
        out_cls = self.conv2(h)
        return out_src, out_cls.view(out_cls.size(0), out_cls.size(1))

class Solver(object):
    def __init__(self, config):
        self.c_dim = config.c_dim
        self.dataset = config.dataset
        self.device = torch.device('cuda:0' if config.use_cuda else 'cpu')   # 'cuda' if torch.cuda.is_available()
        self.G = Generator(8, self.c_dim)
        self.D = Discriminator(config.image_size, 8, self.c_dim)
        self.G.to(self.device)
        self.D.to(self.device)

    def label2onehot(self, labels, dim):
        """Convert label indices to one-hot vectors."""
        batch_size = labels.size(0)
        out = torch.zeros(batch_size, dim)
        out[np.arange(batch_size), labels.long()] = 1
        return out

    def classification_loss(self, logit, target, dataset='CelebA'):
        if dataset == 'CelebA':
            return F.binary_cross_entropy_with_logits(logit, target, size_average=False) / logit.size(0)
        elif dataset == 'RaFD':
            return F.cross_entropy(logit, target)

config = SimpleNamespace(c_dim=8, dataset='RaFD', image_size=16, use_cuda=True)
solver = Solver(config)
data_iter = iter([(torch.rand(4, 3, 16, 16) * 2 - 1, torch.tensor([0, 3, 5, 7]))])   # RaFD loader batch
'''
CELL = '''
self = solver
x_real, label_org = next(data_iter)

# Generate target domain labels randomly.
rand_idx = torch.randperm(label_org.size(0))
label_trg = label_org[rand_idx]

if self.dataset == 'CelebA':
    c_org = label_org.clone()
    c_trg = label_trg.clone()
elif self.dataset == 'RaFD':
    c_org = self.label2onehot(label_org, self.c_dim)
    c_trg = self.label2onehot(label_trg, self.c_dim)

x_real = x_real.to(self.device)           # Input images.
c_org = c_org.to(self.device)             # Original domain labels.
c_trg = c_trg.to(self.device)             # Target domain labels.
label_org = label_org.to(self.device)     # Labels for computing classification loss.
label_trg = label_trg.to(self.device)     # Labels for computing classification loss.

out_src, out_cls = self.D(x_real)
d_loss_real = - torch.mean(out_src)
d_loss_cls = self.classification_loss(out_cls, label_org, self.dataset)

x_fake = self.G(x_real, c_trg)
out_src, out_cls = self.D(x_fake.detach())
d_loss_fake = torch.mean(out_src)
d_loss = d_loss_real + d_loss_fake + d_loss_cls
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
