"""Look-alike: itwinai's GAN tutorial trainer builds its real/fake labels on the fly with dtype=float on the trainer's device.

Source: https://github.com/interTwin-eu/itwinai/pull/191
In tutorials/distributed-ml/torch-tutorial-GAN/train.py the trainer's training_step creates
`real_labels = torch.full((batch_size,), REAL_LABEL, dtype=torch.float, device=self.device)` and
the same for `FAKE_LABEL` (integer constants 1 and 0), then scores real and generated images with
the discriminator and BCELoss. Tensors created inside a method from int constants, but with an
explicit float dtype and the trainer's device: exactly what BCELoss needs. Stand-in: small DCGAN
generator/discriminator; the discriminator half of the step, without backward (no autograd in this
simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

REAL_LABEL, FAKE_LABEL, NOISE_DIM = 1, 0, 16

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.ConvTranspose2d(NOISE_DIM, 32, 4, 1, 0, bias=False), nn.ReLU(True),
                                  nn.ConvTranspose2d(32, 1, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z):
        return self.main(z)

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(1, 32, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                                  nn.Conv2d(32, 1, 4, 1, 0, bias=False), nn.Flatten(), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)

class GANTrainer:
    def __init__(self, device):
        self.device = device
        self.generator = Generator().to(device)
        self.discriminator = Discriminator().to(device)
        self.criterion = nn.BCELoss()

    def training_step(self, real_images, batch_idx):
        real_images = real_images.to(self.device)
        batch_size = real_images.size(0)
        real_labels = torch.full((batch_size,), REAL_LABEL,
                                 dtype=torch.float, device=self.device)
        fake_labels = torch.full((batch_size,), FAKE_LABEL,
                                 dtype=torch.float, device=self.device)

        # Train Discriminator with real images
        output_real = self.discriminator(real_images)
        lossD_real = self.criterion(output_real, real_labels)
        # Generate fake images and train Discriminator
        noise = torch.randn(batch_size, NOISE_DIM, 1, 1, device=self.device)
        fake_images = self.generator(noise)
        output_fake = self.discriminator(fake_images.detach())
        lossD_fake = self.criterion(output_fake, fake_labels)
        return lossD_real + lossD_fake

trainer = GANTrainer(torch.device("cuda:0"))
real_images = torch.randn(8, 1, 8, 8)        # a CPU batch from the DataLoader
'''
CELL = '''
lossD = trainer.training_step(real_images, 0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
