"""Look-alike: the DCGAN tutorial's latent noise and real/fake labels are created with `device=device`; labels are float by design for `BCELoss`.

Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/dcgan_faces_tutorial.py
The training loop draws `noise = torch.randn(b_size, nz, 1, 1, device=device)`, fills labels with
`torch.full((b_size,), real_label, dtype=torch.float, device=device)` and reuses the same label tensor
(`label.fill_(fake_label)`) for the fake batch; `fixed_noise` for progress images is also made on the
device. Mixed-looking (a float label for a "class", noise made mid-loop) but consistent. Stand-in:
generator/discriminator reduced to two transposed/strided convolutions each (BatchNorm left out),
16x16 images.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

nz, ngf, ndf, nc = 16, 8, 8, 3

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 4, 0, bias=False), nn.Tanh())

    def forward(self, input):
        return self.main(input)

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 4, 0, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, 1, 4, 1, 0, bias=False), nn.Sigmoid())

    def forward(self, input):
        return self.main(input)

device = torch.device("cuda:0")
netG = Generator().to(device)
netD = Discriminator().to(device)
criterion = nn.BCELoss()
fixed_noise = torch.randn(64, nz, 1, 1, device=device)
real_label, fake_label = 1., 0.
data = (torch.rand(32, nc, 16, 16) * 2 - 1,)
'''
CELL = '''
with torch.no_grad():
    real_cpu = data[0].to(device)
    b_size = real_cpu.size(0)
    label = torch.full((b_size,), real_label, dtype=torch.float, device=device)
    output = netD(real_cpu).view(-1)
    errD_real = criterion(output, label)
    noise = torch.randn(b_size, nz, 1, 1, device=device)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    progress = netG(fixed_noise).detach()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
