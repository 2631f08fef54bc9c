"""InfoGAN training: the discriminator's real/fake labels are built from Python ints for BCELoss.

Source: https://github.com/Natsu6767/InfoGAN-PyTorch/pull/8
`real_label = 1`, `fake_label = 0` and `label = torch.full((b_size,), real_label, device=device)`
give an int64 label tensor in current PyTorch, and `criterionD(probs_real, label)` (nn.BCELoss)
raised "Found dtype Long but expected Float". The PR changes the constants to 1.0 / 0.0. Run on
the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
from torch import nn

device = torch.device("cpu")
real_label = 1
fake_label = 0

class DHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 1, 4)

    def forward(self, x):
        return torch.sigmoid(self.conv(x))

discriminator = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.1, inplace=True))
netD = DHead()
criterionD = nn.BCELoss()
real_data = torch.randn(8, 1, 8, 8)
b_size = real_data.size(0)
label = torch.full((b_size,), real_label, device=device)
'''
CELL = '''
output1 = discriminator(real_data)
probs_real = netD(output1).view(-1)
loss_real = criterionD(probs_real, label)
loss_real.backward()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
