"""Fooocus live preview: the VAE-approx previewer is kept in fp16 and each step's float32 `x0` is cast to its dtype before the call.

Source: https://github.com/lllyasviel/Fooocus/blob/main/modules/core.py
`get_previewer` loads the small VAEApprox decoder once (`torch.load(..., map_location='cpu')`), turns it
to `.half()` when `should_use_fp16()` and records `current_type = torch.float16`; the sampler hands
float32 `x0` latents to `preview_function`, which does `x0.to(VAE_approx_model.current_type)` before
running it, then converts the result to a uint8 numpy image. A half model meeting float latents on
purpose, cast at the call: it runs.
Stand-in: VAEApprox verbatim, the previewer with the fp16 branch taken, a float32 `x0`. CPU: dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class VAEApprox(torch.nn.Module):
    def __init__(self):
        super(VAEApprox, self).__init__()
        self.conv1 = torch.nn.Conv2d(4, 8, (7, 7))
        self.conv2 = torch.nn.Conv2d(8, 16, (5, 5))
        self.conv3 = torch.nn.Conv2d(16, 32, (3, 3))
        self.conv4 = torch.nn.Conv2d(32, 64, (3, 3))
        self.conv5 = torch.nn.Conv2d(64, 32, (3, 3))
        self.conv6 = torch.nn.Conv2d(32, 16, (3, 3))
        self.conv7 = torch.nn.Conv2d(16, 8, (3, 3))
        self.conv8 = torch.nn.Conv2d(8, 3, (3, 3))
        self.current_type = None

    def forward(self, x):
        extra = 11
        x = torch.nn.functional.interpolate(x, (x.shape[2] * 2, x.shape[3] * 2))
        x = torch.nn.functional.pad(x, (extra, extra, extra, extra))
        for layer in [self.conv1, self.conv2, self.conv3, self.conv4, self.conv5, self.conv6, self.conv7, self.conv8]:
            x = layer(x)
            x = torch.nn.functional.leaky_relu(x, 0.1)
        return x

VAE_approx_models = {}

def should_use_fp16():
    return True

@torch.no_grad()
@torch.inference_mode()
def get_previewer(vae_approx_filename="xlvaeapp.pth"):
    if vae_approx_filename in VAE_approx_models:
        VAE_approx_model = VAE_approx_models[vae_approx_filename]
    else:
        VAE_approx_model = VAEApprox()         # load_state_dict(torch.load(..., map_location='cpu'))
        VAE_approx_model.eval()
        if should_use_fp16():
            VAE_approx_model.half()
            VAE_approx_model.current_type = torch.float16
        else:
            VAE_approx_model.float()
            VAE_approx_model.current_type = torch.float32
        VAE_approx_models[vae_approx_filename] = VAE_approx_model

    @torch.no_grad()
    @torch.inference_mode()
    def preview_function(x0, step, total_steps):
        with torch.no_grad():
            x_sample = x0.to(VAE_approx_model.current_type)
            x_sample = VAE_approx_model(x_sample) * 127.5 + 127.5
            x_sample = x_sample.permute(0, 2, 3, 1)[0]
            x_sample = x_sample.cpu().numpy().clip(0, 255).astype(np.uint8)
            return x_sample

    return preview_function

previewer = get_previewer()
x0 = torch.randn(1, 4, 16, 16)                 # float32 denoised latent from the sampler callback
'''
CELL = '''
preview = previewer(x0, step=5, total_steps=30)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
