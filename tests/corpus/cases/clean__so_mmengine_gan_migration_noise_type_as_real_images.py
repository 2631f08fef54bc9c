"""MMEngine's GAN migration example: the generator's noise is made `.type_as(real_imgs)`.

Source: https://github.com/open-mmlab/mmengine/pull/728
In the review of the "migrate model" docs, `z = torch.randn(inputs['inputs'].shape[0],
self.noise_size)` (a CPU tensor when the model runs on a GPU) was changed to
`z = torch.randn(...).type_as(real_imgs)`, which gives the noise the images' device and dtype.
Look-alike: a tensor created without a device in `train_generator` / `train_discriminator` and
fixed at use by `type_as`; the "GPU" is the meta device. Stand-in: the doc's toy GAN model and a
plain SGD optimizer in place of the OptimWrapper.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ToyGAN(nn.Module):
    def __init__(self, noise_size=8, img_size=16):
        super().__init__()
        self.noise_size = noise_size
        self.generator = nn.Sequential(nn.Linear(noise_size, 32), nn.ReLU(), nn.Linear(32, img_size))
        self.discriminator = nn.Sequential(nn.Linear(img_size, 32), nn.ReLU(), nn.Linear(32, 1))

    def disc_loss(self, disc_pred_fake, disc_pred_real):
        loss = F.softplus(disc_pred_fake).mean() + F.softplus(-disc_pred_real).mean()
        return loss, dict(loss_disc=loss.detach())

    def gen_loss(self, disc_pred_fake):
        loss = F.softplus(-disc_pred_fake).mean()
        return loss, dict(loss_gen=loss.detach())

    def train_discriminator(self, inputs, optimizer):
        real_imgs = inputs['inputs']
        z = torch.randn(inputs['inputs'].shape[0], self.noise_size).type_as(real_imgs)
        with torch.no_grad():
            fake_imgs = self.generator(z)
        disc_pred_fake = self.discriminator(fake_imgs)
        disc_pred_real = self.discriminator(real_imgs)
        parsed_losses, log_vars = self.disc_loss(disc_pred_fake, disc_pred_real)
        parsed_losses.backward()
        optimizer.step()
        optimizer.zero_grad()
        return log_vars

    def train_generator(self, inputs, optimizer):
        real_imgs = inputs['inputs']
        z = torch.randn(inputs['inputs'].shape[0], self.noise_size).type_as(real_imgs)
        fake_imgs = self.generator(z)
        disc_pred_fake = self.discriminator(fake_imgs)
        parsed_loss, log_vars = self.gen_loss(disc_pred_fake)
        parsed_loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return log_vars

device = torch.device("meta")
model = ToyGAN().to(device)
optimizer_d = torch.optim.SGD(model.discriminator.parameters(), lr=0.01)
optimizer_g = torch.optim.SGD(model.generator.parameters(), lr=0.01)
data = {'inputs': torch.randn(4, 16, device=device)}
'''
CELL = '''
log_vars = model.train_discriminator(data, optimizer_d)
log_vars.update(model.train_generator(data, optimizer_g))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
