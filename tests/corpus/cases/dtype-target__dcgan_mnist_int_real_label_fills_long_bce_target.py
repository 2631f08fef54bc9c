"""dcgan-mnist `main.py`: `real_label = 1` makes `torch.full((bs,), real_label)` a LongTensor, and BCELoss rejects it as target.

Source: https://github.com/AKASHKADEL/dcgan-mnist/pull/2
"Make the labels float: Running the code fails with ... lossD_real = criterion(output, label) ...
RuntimeError: Found dtype Long but expected Float. It seems binary_cross_entropy (on pytorch 1.7.0)
expects FloatTensor not LongTensor. Make the real_label and fake_label float solves the problem."
Since PyTorch 1.7 `torch.full` infers the dtype from the fill value, so the integer `real_label` /
`fake_label` constants give an int64 `label`. The PR sets `real_label = 1.` and `fake_label = 0.`.
Reduced: the repo's Generator/Discriminator with ngf=ndf=8, random 28x28 batches for the MNIST
loader, one step of the training loop, CPU.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn
import torch.optim as optim

class Generator(nn.Module):
    def __init__(self, nc, nz, ngf):
      super(Generator, self).__init__()
      self.network = nn.Sequential(
          nn.ConvTranspose2d(nz, ngf*4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf*4), nn.ReLU(True),
          nn.ConvTranspose2d(ngf*4, ngf*2, 3, 2, 1, bias=False), nn.BatchNorm2d(ngf*2), nn.ReLU(True),
          nn.ConvTranspose2d(ngf*2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
          nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())
    def forward(self, input):
      return self.network(input)

class Discriminator(nn.Module):
    def __init__(self, nc, ndf):
        super(Discriminator, self).__init__()
        self.network = nn.Sequential(
                nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 2, ndf * 4, 3, 2, 1, bias=False), nn.BatchNorm2d(ndf * 4), nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 4, 1, 4, 1, 0, bias=False), nn.Sigmoid())
    def forward(self, input):
        output = self.network(input)
        return output.view(-1, 1).squeeze(1)

class Opt:
    nz, ngf, ndf, nc, d_lr, g_lr, batch_size = 100, 8, 8, 1, 0.0002, 0.0002, 16

opt = Opt()
torch.manual_seed(0)
train_loader = [(torch.rand(opt.batch_size, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (opt.batch_size,)))]  # MNIST
device = torch.device('cpu')
netG = Generator(opt.nc, opt.nz, opt.ngf).to(device)
netD = Discriminator(opt.nc, opt.ndf).to(device)
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=opt.d_lr)
optimizerG = optim.Adam(netG.parameters(), lr=opt.g_lr)
real_label = 1
fake_label = 0
'''
CELL = '''
for i, (real_images, _) in enumerate(train_loader):
    bs = real_images.shape[0]
    netD.zero_grad()
    real_images = real_images.to(device)
    label = torch.full((bs,), real_label, device=device)
    output = netD(real_images)
    lossD_real = criterion(output, label)
    lossD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(bs, opt.nz, 1, 1, device=device)
    fake_images = netG(noise)
    label.fill_(fake_label)
    output = netD(fake_images.detach())
    lossD_fake = criterion(output, label)
    lossD_fake.backward()
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake_images)
    lossG = criterion(output, label)
    lossG.backward()
    optimizerG.step()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
real_label = 1.
fake_label = 0.
'''
REFERENCE_EDIT = None
CLEAN = False
