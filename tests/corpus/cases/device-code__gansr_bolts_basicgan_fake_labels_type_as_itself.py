"""pl_bolts BasicGAN on `--gpus 1`: the discriminator's fake targets are made on the CPU and `fake.type_as(fake)` keeps them there.

Source: https://github.com/Lightning-Universe/lightning-bolts/issues/30
`BasicGAN.discriminator_loss` builds `valid = torch.ones(x.size(0), 1); valid = valid.type_as(x)` but
`fake = torch.zeros(x.size(0), 1); fake = fake.type_as(fake)` (a typo: type_as itself), so on the GPU
`F.binary_cross_entropy(self.discriminator(self.generated_imgs.detach()), fake)` failed with "Expected
object of device type cuda but got device type cpu for argument #2 'target'". The fix is
`fake.type_as(x)`. The LightningModule is reduced to an nn.Module with the same methods; the trainer's
move of model and batch to the GPU is done with `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F
import numpy as np

class Generator(nn.Module):
    def __init__(self, latent_dim, img_shape, hidden_dim=32):
        super().__init__()
        feats = int(np.prod(img_shape))
        self.img_shape = img_shape
        self.fc1 = nn.Linear(latent_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, feats)
    def forward(self, z):
        z = F.leaky_relu(self.fc1(z), 0.2)
        img = torch.tanh(self.fc2(z))
        return img.view(img.size(0), *self.img_shape)

class Discriminator(nn.Module):
    def __init__(self, img_shape, hidden_dim=32):
        super().__init__()
        in_dim = int(np.prod(img_shape))
        self.fc1 = nn.Linear(in_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, 1)
    def forward(self, img):
        x = img.view(img.size(0), -1)
        x = F.leaky_relu(self.fc1(x), 0.2)
        return torch.sigmoid(self.fc2(x))

class BasicGAN(nn.Module):       # pl.LightningModule in pl_bolts
    def __init__(self, input_channels=1, input_height=8, input_width=8, latent_dim=16):
        super().__init__()
        self.latent_dim = latent_dim
        self.img_dim = (input_channels, input_width, input_height)
        self.generator = Generator(latent_dim, self.img_dim)
        self.discriminator = Discriminator(self.img_dim)

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, y_hat, y):
        return F.binary_cross_entropy(y_hat, y)

    def generator_step(self, x):
        z = torch.randn(x.shape[0], self.latent_dim, device=x.device)
        self.generated_imgs = self(z)
        real = torch.ones(x.size(0), 1, device=x.device)
        return self.adversarial_loss(self.discriminator(self.generated_imgs), real)

    def discriminator_loss(self, x):
        # how well can it label as real?
        valid = torch.ones(x.size(0), 1)
        valid = valid.type_as(x)

        real_loss = self.adversarial_loss(self.discriminator(x), valid)

        # how well can it label as fake?
        fake = torch.zeros(x.size(0), 1)
        fake = fake.type_as(fake)

        fake_loss = self.adversarial_loss(
            self.discriminator(self.generated_imgs.detach()), fake)

        # discriminator loss is the average of these
        d_loss = (real_loss + fake_loss) / 2
        return d_loss

model = BasicGAN().to("cuda:0")        # Trainer(gpus=1) moves the module
x = torch.rand(4, 1, 8, 8).to("cuda:0")  # and the batch
g_loss = model.generator_step(x)
'''
CELL = '''
d_loss = model.discriminator_loss(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("fake = fake.type_as(fake)", "fake = fake.type_as(x)")
CLEAN = False
