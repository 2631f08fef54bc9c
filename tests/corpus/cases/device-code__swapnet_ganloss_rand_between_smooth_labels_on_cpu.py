"""SwapNet: smooth GAN labels are drawn with `torch.rand(1)` on the CPU and scaled by cuda label buffers.

Source: https://github.com/andrewjong/SwapNet/issues/47
`GANLoss` registers `real_label`/`fake_label` as buffers (moved to the GPU with the loss), but its
static `rand_between(low, high)` draws `rand_func(1)` without a device, so `rand_func(1) * (high - low)`
mixed a 1-element CPU tensor with the cuda label values: "Expected all tensors to be on the same
device, cuda:0 and cpu" in `backward_D` -> `criterion_GAN(pred_fake, False)`. The warp model and its
discriminator are small stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class GANLoss(nn.Module):
    default_real = 1.0
    default_fake = 0
    default_smooth_real = (0.7, 1.1)
    default_smooth_fake = (0.0, 0.3)

    def __init__(self, gan_mode, smooth_labels=True, target_real_label=None, target_fake_label=None):
        super().__init__()
        if target_real_label is None:
            target_real_label = self.default_smooth_real if smooth_labels else self.default_real
        if target_fake_label is None:
            target_fake_label = self.default_smooth_fake if smooth_labels else self.default_fake
        self.register_buffer("real_label", torch.tensor(target_real_label))
        self.register_buffer("fake_label", torch.tensor(target_fake_label))
        self.gan_mode = gan_mode
        if gan_mode == "lsgan":
            self.loss = nn.MSELoss()
        else:
            self.loss = nn.BCEWithLogitsLoss()

    @staticmethod
    def rand_between(low, high, normal=False):
        rand_func = torch.randn if normal else torch.rand
        return rand_func(1) * (high - low) + low

    def get_target_tensor(self, prediction, target_is_real):
        if target_is_real:
            if len(self.real_label) == 2:
                low, high = self.real_label
                target_tensor = GANLoss.rand_between(low, high).to(self.real_label.device)
            else:
                target_tensor = self.real_label
        else:
            if len(self.fake_label) == 2:
                low, high = self.real_label
                target_tensor = GANLoss.rand_between(low, high).to(self.fake_label.device)
            else:
                target_tensor = self.fake_label
        return target_tensor.expand_as(prediction)

    def __call__(self, prediction, target_is_real):
        target_tensor = self.get_target_tensor(prediction, target_is_real)
        return self.loss(prediction, target_tensor)

class WarpModel:
    def __init__(self, device):
        self.device = device
        self.net_generator = nn.Sequential(nn.Conv2d(19, 19, 3, padding=1)).to(device)
        self.net_discriminator = nn.Sequential(nn.Conv2d(19, 8, 4, 2, 1), nn.LeakyReLU(0.2),
                                               nn.Conv2d(8, 1, 4, 2, 1)).to(device)
        self.criterion_GAN = GANLoss("lsgan", smooth_labels=True).to(device)

model = WarpModel(torch.device("cuda:0"))
cloth = torch.randn(2, 19, 16, 16).to(model.device)
'''
CELL = '''
fake_decoded = model.net_generator(cloth)
pred_fake = model.net_discriminator(fake_decoded.detach())
loss_D_fake = model.criterion_GAN(pred_fake, False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.criterion_GAN"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return rand_func(1) * (high - low) + low",
                  "return rand_func(1, device=low.device) * (high - low) + low")
CLEAN = False
