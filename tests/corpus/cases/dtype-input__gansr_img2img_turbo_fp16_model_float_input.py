"""img2img-turbo (CycleGAN-Turbo day_to_night) with fp16: the model is halved but the input image stays float32.

Source: https://github.com/GaParmar/img2img-turbo/issues/88
Running the unpaired day_to_night model with fp16 from the user's own script failed in the first
convolution with "Input type (float) and bias type (struct c10::Half) should be the same". With
`--use_fp16`, `inference_unpaired.py` calls `model.half()` and also casts the input
(`x_t = x_t.half()`); the user's pipeline only halved the model. The maintainer: "you need to cast the
input also to fp16". CycleGAN_Turbo (VAE encoder / one-step UNet / decoder) is a small conv stand-in;
runs on the CPU (half convs work there).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class CycleGAN_Turbo(nn.Module):
    def __init__(self, pretrained_name=None, pretrained_path=None):
        super().__init__()
        self.vae_enc = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))
        self.unet = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))
        self.vae_dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(4, 3, 3, padding=1))
    def forward(self, x_t, direction=None, caption=None):
        z = self.vae_enc(x_t)
        z = z - self.unet(z)
        return self.vae_dec(z).clamp(-1, 1)

model = CycleGAN_Turbo(pretrained_name="day_to_night")
model.eval()
use_fp16 = True
if use_fp16:
    model.half()
input_img = torch.rand(3, 32, 32)                     # T_val(input_image) -> ToTensor()
x_t = ((input_img - 0.5) / 0.5).unsqueeze(0)          # Normalize([0.5], [0.5]) ... .cuda() on the user's side
'''
CELL = '''
with torch.no_grad():
    output = model(x_t, direction=None, caption=None)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["x_t"]
FIX = "namespace"
REFERENCE_FIX = '''
x_t = x_t.half()
'''
REFERENCE_EDIT = None
CLEAN = False
