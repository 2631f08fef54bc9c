"""Image-Generator DCGAN: `torch.full((b_size,), real_label)` with `real_label = 1` gives Long targets for BCELoss.

Source: https://github.com/shivamswarnkar/Image-Generator/issues/1
Training the DCGAN on a custom dataset failed at `errD_real = criterion(real_outputD, labels)` with
"Found dtype Long but expected Float". With recent PyTorch, `torch.full` infers the dtype from the
fill value, so the integer `real_label = 1` makes `labels` an int64 tensor; the maintainer's fix
(commit 55b6d06) makes the labels float. Generator/discriminator are small DCGAN stand-ins.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cpu")
nz, ngf, ndf, nc = 16, 8, 8, 3
real_label = 1
fake_label = 0

netD = nn.Sequential(
    nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
).to(device)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))

data = (torch.rand(4, nc, 16, 16) * 2 - 1, torch.zeros(4))   # one batch of the ImageFolder loader
netD.zero_grad()
real_inputs = data[0].to(device)
b_size = real_inputs.size(0)
labels = torch.full((b_size,), real_label, device=device)
'''
CELL = '''
real_outputD = netD(real_inputs).view(-1)
errD_real = criterion(real_outputD, labels)
errD_real.backward()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.float()
'''
REFERENCE_EDIT = None
CLEAN = False
