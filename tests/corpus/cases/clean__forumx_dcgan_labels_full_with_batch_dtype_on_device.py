"""Look-alike: pytorch/examples DCGAN builds its BCE labels with `torch.full(..., dtype=real_cpu.dtype, device=device)` every step.

Source: https://github.com/pytorch/examples/blob/main/dcgan/main.py
In the training loop `real_cpu = data[0].to(device)` (the name says cpu, the tensor is on the
GPU), `label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype, device=device)`,
`noise = torch.randn(batch_size, nz, 1, 1, device=device)`, then `label.fill_(fake_label)` is reused
for the fake batch; `real_label = 1` and `fake_label = 0` are Python ints, cast by the dtype given.
Float targets for `BCELoss`, all on the device: the cell runs. Stand-in: a 16x16 Generator and
Discriminator with the example's layer pattern; the GPU is meta (autograd works there).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.optim as optim

device = torch.device("meta")          # torch.device("cuda:0" if args.cuda else "cpu")
nz, ngf, ndf, nc = 8, 8, 8, 3

class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh()
        )

    def forward(self, input):
        return self.main(input)

class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid()
        )

    def forward(self, input):
        output = self.main(input)
        return output.view(-1, 1).squeeze(1)

netG = Generator().to(device)
netD = Discriminator().to(device)
criterion = nn.BCELoss()
real_label = 1
fake_label = 0
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
dataloader = [(torch.rand(4, nc, 16, 16) * 2 - 1, torch.zeros(4, dtype=torch.long))]
'''
CELL = '''
for i, data in enumerate(dataloader, 0):
    netD.zero_grad()
    real_cpu = data[0].to(device)
    batch_size = real_cpu.size(0)
    label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype, device=device)
    output = netD(real_cpu)
    errD_real = criterion(output, label)
    errD_real.backward()
    noise = torch.randn(batch_size, nz, 1, 1, device=device)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
