"""PyTorch DCGAN tutorial: the real batch is called `real_cpu` although it was just moved to the GPU; labels and noise are made on `device`.

Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/dcgan_faces_tutorial.py
The tutorial's discriminator step does `real_cpu = data[0].to(device)`, builds the target with
`torch.full((b_size,), real_label, dtype=torch.float, device=device)` and the noise with
`torch.randn(b_size, nz, 1, 1, device=device)`, then runs netD/netG (both `.to(device)`) and BCELoss.
Look-alike: a tensor whose name says "cpu" sits on cuda beside the GPU models; every tensor the
step creates is given `device=device`. Stand-in: 32x32 generator/discriminator with the tutorial's
layer pattern, random CPU batches instead of CelebA, forward passes only (no_grad); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("meta")   # the GPU, simulated with meta; the tutorial: "cuda:0" if (torch.cuda.is_available() and ngpu > 0) else "cpu"
nc, nz, ngf, ndf = 3, 16, 8, 8

class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
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
            nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 4),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 4, 1, 4, 1, 0, bias=False),
            nn.Sigmoid()
        )

    def forward(self, input):
        return self.main(input)

netG = Generator().to(device)
netD = Discriminator().to(device)
criterion = nn.BCELoss()
fixed_noise = torch.randn(64, nz, 1, 1, device=device)
real_label = 1.
fake_label = 0.
dataloader = [(torch.rand(8, nc, 32, 32) * 2 - 1, torch.zeros(8, dtype=torch.long)) for _ in range(2)]
'''
CELL = '''
with torch.no_grad():
    for i, data in enumerate(dataloader, 0):
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
        errD = errD_real + errD_fake
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
