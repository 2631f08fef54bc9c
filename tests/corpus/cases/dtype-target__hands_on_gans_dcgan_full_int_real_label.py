"""Hands-On GANs book, chapter 4 DCGAN: `torch.full(..., 1)` labels are Long, BCELoss wants Float.

Source: https://github.com/PacktPublishing/Hands-On-Generative-Adversarial-Networks-with-PyTorch-1.x/issues/4
Running the chapter's dcgan.py, `criterion(y_real, real_label)` failed with a Long-vs-Float
error: the labels are built with `torch.full((x_real.size(0),), REAL_LABEL, device=device)` and an
integer fill value, which newer PyTorch infers as int64. The reply's fix: `real_label =
real_label.float()` (and the same for `fake_label`) before each loss. The networks are stood in
for by small fully-connected ones; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cpu")
Z_DIM, BATCH_SIZE, REAL_LABEL, FAKE_LABEL = 16, 8, 1, 0

netG = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, 28 * 28), nn.Tanh()).to(device)
netD = nn.Sequential(nn.Linear(28 * 28, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1), nn.Sigmoid()).to(device)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))

x_real = torch.rand(BATCH_SIZE, 28 * 28).to(device)
real_label = torch.full((x_real.size(0),), REAL_LABEL, device=device)
fake_label = torch.full((x_real.size(0),), FAKE_LABEL, device=device)
'''
CELL = '''
netD.zero_grad()
y_real = netD(x_real).view(-1)
loss_D_real = criterion(y_real, real_label)
loss_D_real.backward()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["real_label"]
FIX = "namespace"
REFERENCE_FIX = '''
real_label = real_label.float()
fake_label = fake_label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
