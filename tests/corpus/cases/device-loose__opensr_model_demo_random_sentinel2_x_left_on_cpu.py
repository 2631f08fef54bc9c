"""opensr-model (ESA OpenSR) demo: the Sentinel-2 super-resolution model is built on cuda, the test tensor `X` stays on the CPU.

Source: https://github.com/ESAOpenSR/opensr-model/issues/6
Running the README demo on a GPU machine, `sr = model(X)` failed with a device mismatch: the model
is created with `device = "cuda" if torch.cuda.is_available() else "cpu"` (`SRLatentDiffusion(config,
device=device)`), while the "test functionality" block makes `X = torch.rand(1, 4, 128, 128)` on the
CPU. The maintainer's answer: send `X` to `device`. Stand-ins: SRLatentDiffusion reduced to a
conv encoder/decoder around one denoising step that builds its noise on the model's device; config
and pretrained weights omitted.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SRLatentDiffusion(nn.Module):
    def __init__(self, config=None, device="cpu"):
        super().__init__()
        self.encoder = nn.Conv2d(4, 8, 3, padding=1)
        self.denoiser = nn.Conv2d(8, 8, 3, padding=1)
        self.decoder = nn.Conv2d(8, 4, 3, padding=1)
        self.device = device
        self.to(device)

    def load_pretrained(self, ckpt_version):
        pass                                        # downloads and loads the checkpoint

    @torch.no_grad()
    def forward(self, x, custom_steps=1, temperature=1.0):
        x = F.interpolate(x, scale_factor=4, mode="bilinear")
        z = self.encoder(x)
        z = z + temperature * torch.randn(z.shape, device=self.device)
        for _ in range(custom_steps):
            z = z - self.denoiser(z)
        return self.decoder(z)

device = "cuda:0"                                  # "cuda" if torch.cuda.is_available() else "cpu"
config = {"ckpt_version": "opensr-ldsrs2_v1_0_0.ckpt", "model_type": "10m"}
model = SRLatentDiffusion(config, device=device)
model.load_pretrained(config["ckpt_version"])
model_type = "10m"

# test functionality of selected model
if model_type == "10m":
    X = torch.rand(1, 4, 128, 128)
if model_type == "20m":
    X = torch.rand(1, 6, 128, 128)
'''
CELL = '''
sr = model(X)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
