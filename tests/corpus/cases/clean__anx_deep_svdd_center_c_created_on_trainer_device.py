"""Deep SVDD (Ruff et al.) keeps the hypersphere center `c` as a plain tensor, created on the trainer's device.

Source: https://github.com/lukasruff/Deep-SVDD-PyTorch/blob/master/src/optim/deepSVDD_trainer.py
Look-alike: the one-class objective uses `self.c`, a tensor held on the trainer rather than the network
(no buffer, untouched by `net.to()`), and the DataLoader yields CPU batches. It runs because
`init_center_c` builds `c = torch.zeros(net.rep_dim, device=self.device)` from the network outputs and
each batch is moved with `inputs.to(self.device)`. Stand-in: the trainer's `init_center_c` and test
scoring with a small LeNet-like encoder; the masked writes that push
`c` away from zero are written with `torch.where` (same values).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MNIST_LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.rep_dim = 32
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 5, bias=False, padding=2), nn.LeakyReLU(), nn.MaxPool2d(2))
        self.fc1 = nn.Linear(8 * 14 * 14, self.rep_dim, bias=False)

    def forward(self, x):
        return self.fc1(self.conv(x).flatten(1))

class DeepSVDDTrainer:
    def __init__(self, objective="one-class", R=0.0, c=None, nu=0.1, device="cuda:0"):
        self.objective, self.nu, self.device = objective, nu, device
        self.R = torch.tensor(R, device=self.device)
        self.c = torch.tensor(c, device=self.device) if c is not None else None

    def init_center_c(self, train_loader, net, eps=0.1):
        n_samples = 0
        c = torch.zeros(net.rep_dim, device=self.device)
        with torch.no_grad():
            for inputs, _, _ in train_loader:
                inputs = inputs.to(self.device)
                outputs = net(inputs)
                n_samples += outputs.shape[0]
                c += torch.sum(outputs, dim=0)
        c /= n_samples
        # c[(abs(c) < eps) & (c < 0)] = -eps ; c[(abs(c) < eps) & (c > 0)] = eps  (masked writes, as torch.where)
        c = torch.where((abs(c) < eps) & (c < 0), torch.full_like(c, -eps), c)
        c = torch.where((abs(c) < eps) & (c > 0), torch.full_like(c, eps), c)
        return c

    def test(self, test_loader, net):
        scores = []
        with torch.no_grad():
            for inputs, labels, idx in test_loader:
                inputs = inputs.to(self.device)
                outputs = net(inputs)
                dist = torch.sum((outputs - self.c) ** 2, dim=1)
                scores.append(dist)
        return torch.cat(scores)

loader = [(torch.rand(8, 1, 28, 28), torch.zeros(8, dtype=torch.long), torch.arange(8)) for _ in range(2)]
net = MNIST_LeNet().to("cuda:0")
trainer = DeepSVDDTrainer()
'''
CELL = '''
trainer.c = trainer.init_center_c(loader, net)
scores = trainer.test(loader, net)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
