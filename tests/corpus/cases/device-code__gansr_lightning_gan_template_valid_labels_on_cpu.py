"""Lightning's gan.py template on `gpus=1`: the generator's `valid` targets are created inside training_step on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/523
Running the GAN example with `Trainer(gpus=1, distributed_backend='dp')` failed at
`g_loss = self.adversarial_loss(self.discriminator(self.generated_imgs), valid)` with "Expected object
of device type cuda but got device type cpu" for the BCE target: the template moved the sampled `z` to
`imgs.device` but built `valid = torch.ones(imgs.size(0), 1)` without moving it. The template was
fixed to put the targets on the batch's GPU ("put on GPU because we created this tensor inside
training_loop"). The LightningModule is reduced to an nn.Module with the same training_step; the
trainer's placement of module and batch is done with `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

class Generator(nn.Module):
    def __init__(self, latent_dim, img_shape):
        super(Generator, self).__init__()
        self.img_shape = img_shape
        self.model = nn.Sequential(nn.Linear(latent_dim, 32), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(32, int(np.prod(img_shape))), nn.Tanh())
    def forward(self, z):
        img = self.model(z)
        return img.view(img.size(0), *self.img_shape)

class Discriminator(nn.Module):
    def __init__(self, img_shape):
        super(Discriminator, self).__init__()
        self.model = nn.Sequential(nn.Linear(int(np.prod(img_shape)), 32), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(32, 1), nn.Sigmoid())
    def forward(self, img):
        return self.model(img.view(img.size(0), -1))

class GAN(nn.Module):          # pl.LightningModule
    def __init__(self, hparams):
        super(GAN, self).__init__()
        self.hparams = hparams
        mnist_shape = (1, 8, 8)
        self.generator = Generator(latent_dim=hparams.latent_dim, img_shape=mnist_shape)
        self.discriminator = Discriminator(img_shape=mnist_shape)
        self.generated_imgs = None
        self.last_imgs = None
        self.on_gpu = False

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, y_hat, y):
        return F.binary_cross_entropy(y_hat, y)

    def training_step(self, batch, batch_nb, optimizer_i):
        imgs, _ = batch
        self.last_imgs = imgs
        # train generator
        if optimizer_i == 0:
            # sample noise
            z = torch.randn(imgs.shape[0], self.hparams.latent_dim)
            # match gpu device (or keep as cpu)
            if self.on_gpu:
                z = z.to(imgs.device)            # z.cuda(imgs.device.index)
            # generate images
            self.generated_imgs = self.forward(z)
            # ground truth result (ie: all fake)
            valid = torch.ones(imgs.size(0), 1)
            # adversarial loss is binary cross-entropy
            g_loss = self.adversarial_loss(self.discriminator(self.generated_imgs), valid)
            return {'loss': g_loss}

gan_model = GAN(SimpleNamespace(latent_dim=16, lr=0.0002))
gan_model.to("cuda:0")            # Trainer(gpus=1): module on the GPU ...
gan_model.on_gpu = True
batch = (torch.rand(4, 1, 8, 8).to("cuda:0"), torch.zeros(4).to("cuda:0"))   # ... and the batch
'''
CELL = '''
output = gan_model.training_step(batch, 0, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gan_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            valid = torch.ones(imgs.size(0), 1)\n",
                  "            valid = torch.ones(imgs.size(0), 1)\n            if self.on_gpu:\n                valid = valid.to(imgs.device)\n")
CLEAN = False
