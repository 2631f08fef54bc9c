"""DragGAN (OpenGVLab) on CPU: GAN inversion of a custom image hard-codes `device = "cuda"`.

Source: https://github.com/OpenGVLab/DragGAN/issues/70
Running the gradio demo with `--device cpu` and importing a custom image failed in the inversion
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu! (when checking argument for argument mat2 in method wrapper_CUDA_mm)". The cause, pointed out in
the linked PR thread (OpenGVLab/DragGAN#78, acknowledged by the author): `inverse_image` in
`draggan/stylegan2/inversion.py` sets `device = "cuda"` instead of using the parsed `--device`, so
the mean-latent noise is drawn on cuda and fed to the CPU generator's mapping network; the fix is to
use the parsed device. Stand-ins: the rosinality generator (`style` MLP, `make_noise`, DragGAN's
`prepare`/`generate`) is reduced to Linear layers, torchvision transforms to tensor ops, and the
LPIPS/Adam optimisation loop (autograd) is cut after the first generation; `"cuda"` is written
`"cuda:0"` because the CPU simulator refuses `.to("cuda")` without an index.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import dataclasses
import torch
from torch import nn
from torch.nn import functional as FF

class CustomGenerator(nn.Module):
    """Stand-in for draggan's CustomGenerator(stylegan2.model.Generator)."""
    def __init__(self, size=8, style_dim=16, n_mlp=2):
        super().__init__()
        self.size = size
        self.style_dim = style_dim
        self.n_latent = 4
        self.num_layers = 2
        layers = []
        for _ in range(n_mlp):
            layers += [nn.Linear(style_dim, style_dim), nn.LeakyReLU(0.2)]
        self.style = nn.Sequential(*layers)
        self.synthesis = nn.Linear(style_dim, 3 * size * size)

    def make_noise(self):
        device = self.synthesis.weight.device
        return [torch.randn(1, 1, 4 * 2 ** i, 4 * 2 ** i, device=device) for i in range(self.num_layers)]

    def prepare(self, styles, input_is_latent=False, noise=None):
        if not input_is_latent:
            styles = [self.style(s) for s in styles]
        latent = styles[0].unsqueeze(1).repeat(1, self.n_latent, 1)
        return latent, noise

    def generate(self, latent, noise):
        image = self.synthesis(latent.mean(1)).view(-1, 3, self.size, self.size)
        F = image
        return image, F

@dataclasses.dataclass
class InverseConfig:
    lr_warmup = 0.05
    lr_decay = 0.25
    lr = 0.1
    noise = 0.05
    noise_decay = 0.75
    step = 1000
    noise_regularize = 1e5
    mse = 0
    w_plus = False

def inverse_image(
    g_ema,
    image,
    image_size=256,
    config=InverseConfig()
):
    device = "cuda:0"
    args = config

    n_mean_latent = 100

    imgs = []
    img = (image - 0.5) / 0.5          # transforms.Normalize([0.5]*3, [0.5]*3)
    imgs.append(img)

    imgs = torch.stack(imgs, 0).to(device)

    with torch.no_grad():
        noise_sample = torch.randn(n_mean_latent, g_ema.style_dim, device=device)
        latent_out = g_ema.style(noise_sample)

        latent_mean = latent_out.mean(0)
        latent_std = ((latent_out - latent_mean).pow(2).sum() / n_mean_latent) ** 0.5

    noises_single = g_ema.make_noise()
    noises = []
    for noise in noises_single:
        noises.append(noise.repeat(imgs.shape[0], 1, 1, 1).normal_())

    latent_in = latent_mean.detach().clone().unsqueeze(0).repeat(imgs.shape[0], 1)

    # (the LPIPS + Adam optimisation loop over args.step steps is cut here)
    latent, noise = g_ema.prepare([latent_in], input_is_latent=True, noise=noises)
    img_gen, F = g_ema.generate(latent, noise)
    mse_loss = FF.mse_loss(img_gen, imgs)

    return {"latent": latent, "noise": noises, "F": F, "sample": img_gen, "mse": mse_loss}

device = "cpu"                      # python -m draggan.web --device cpu
g_ema = CustomGenerator().to(device)
g_ema.requires_grad_(False)
g_ema.eval()
image = torch.rand(3, 8, 8)         # the uploaded picture, resized and ToTensor()-ed
'''
CELL = '''
result = inverse_image(g_ema, image, image_size=8)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inverse_image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('    device = "cuda:0"\n', '')
CLEAN = False
