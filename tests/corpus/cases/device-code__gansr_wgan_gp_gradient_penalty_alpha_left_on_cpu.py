"""WGAN-GP (Machine-Learning-Collection): `gradient_penalty` draws `alpha` on the CPU and mixes it with cuda images.

Source: https://github.com/aladdinpersson/Machine-Learning-Collection/issues/58
The user pointed out that in the WGAN-GP `utils.py` the interpolation coefficient
`alpha = torch.rand((BATCH_SIZE, 1, 1, 1)).repeat(1, C, H, W)` is never sent `.to(device)`, although
`gradient_penalty(critic, real, fake, device=device)` receives the device, so
`real * alpha + fake * (1 - alpha)` mixes cuda images with a CPU tensor. The fix is `.to(device)` on
alpha. Critic/generator are reduced DCGAN-style stand-ins; the "GPU" is meta (autograd.grad is needed).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class Critic(nn.Module):
    def __init__(self, channels_img, features_d):
        super(Critic, self).__init__()
        self.disc = nn.Sequential(
            nn.Conv2d(channels_img, features_d, kernel_size=4, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            self._block(features_d, features_d * 2, 4, 2, 1),
            nn.Conv2d(features_d * 2, 1, kernel_size=4, stride=2, padding=0),
        )

    def _block(self, in_channels, out_channels, kernel_size, stride, padding):
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.InstanceNorm2d(out_channels, affine=True),
            nn.LeakyReLU(0.2),
        )

    def forward(self, x):
        return self.disc(x)

class Generator(nn.Module):
    def __init__(self, channels_noise, channels_img, features_g):
        super(Generator, self).__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(channels_noise, features_g * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(features_g * 2),
            nn.ReLU(),
            nn.ConvTranspose2d(features_g * 2, channels_img, kernel_size=4, stride=4, padding=0),
            nn.Tanh(),
        )

    def forward(self, x):
        return self.net(x)

def gradient_penalty(critic, real, fake, device="cpu"):
    BATCH_SIZE, C, H, W = real.shape
    alpha = torch.rand((BATCH_SIZE, 1, 1, 1)).repeat(1, C, H, W)
    interpolated_images = real * alpha + fake * (1 - alpha)

    # Calculate critic scores
    mixed_scores = critic(interpolated_images)

    # Take the gradient of the scores with respect to the images
    gradient = torch.autograd.grad(
        inputs=interpolated_images,
        outputs=mixed_scores,
        grad_outputs=torch.ones_like(mixed_scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    gradient = gradient.view(gradient.shape[0], -1)
    gradient_norm = gradient.norm(2, dim=1)
    gradient_penalty = torch.mean((gradient_norm - 1) ** 2)
    return gradient_penalty

device = "meta"          # "cuda" if torch.cuda.is_available() else "cpu" on the user's machine
Z_DIM = 16
CHANNELS_IMG = 1
FEATURES_CRITIC = 8
FEATURES_GEN = 8
LAMBDA_GP = 10
gen = Generator(Z_DIM, CHANNELS_IMG, FEATURES_GEN).to(device)
critic = Critic(CHANNELS_IMG, FEATURES_CRITIC).to(device)
real = torch.randn(4, CHANNELS_IMG, 16, 16).to(device)
cur_batch_size = real.shape[0]
'''
CELL = '''
noise = torch.randn(cur_batch_size, Z_DIM, 1, 1).to(device)
fake = gen(noise)
critic_real = critic(real).reshape(-1)
critic_fake = critic(fake).reshape(-1)
gp = gradient_penalty(critic, real, fake, device=device)
loss_critic = (
    -(torch.mean(critic_real) - torch.mean(critic_fake)) + LAMBDA_GP * gp
)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["alpha"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("alpha = torch.rand((BATCH_SIZE, 1, 1, 1)).repeat(1, C, H, W)",
                  "alpha = torch.rand((BATCH_SIZE, 1, 1, 1)).repeat(1, C, H, W).to(device)")
CLEAN = False
