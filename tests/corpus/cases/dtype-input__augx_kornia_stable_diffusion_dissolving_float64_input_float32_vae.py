"""kornia `StableDiffusionDissolving` on a float64 image: the wrapper moves the input to the pipeline's device but not its dtype.

Source: https://github.com/kornia/kornia/issues/3908
The scheduled float64 test job failed in `tests/filters/test_dissolving.py` with "RuntimeError: Input type
(double) and bias type (float) should be the same". Cause given in the report:
`_DissolvingWraper_HF.encode_tensor_to_latent` moves the input image to the pipeline device but keeps the
caller's dtype, while the Stable Diffusion VAE weights stay float32, so any non-float32 input crashes in
the VAE's first conv; the intended contract ("the model internally converts latents to its own dtype")
was missing the conversion. Fix: convert the image to the pipeline's dtype as well.
Stand-in: a tiny VAE encoder / UNet-free pipeline with `device`/`dtype` properties like diffusers', the
wrapper and the `StableDiffusionDissolving` module, keeping the structure that loses the dtype.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class AutoencoderKL(nn.Module):                     # stand-in for diffusers' VAE (encoder only)
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 8, 3, padding=1)
        self.quant_conv = nn.Conv2d(8, 8, 1)
        self.scaling_factor = 0.18215

    def encode(self, x):
        h = self.quant_conv(torch.relu(self.conv_in(x)))
        mean, logvar = h.chunk(2, dim=1)
        return mean

class StableDiffusionPipeline(nn.Module):           # stand-in: only what the wrapper touches
    def __init__(self):
        super().__init__()
        self.vae = AutoencoderKL()

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype

class _DissolvingWraper_HF:
    def __init__(self, model, num_ddim_steps=50):
        self.model = model
        self.num_ddim_steps = num_ddim_steps

    def encode_tensor_to_latent(self, image):
        with torch.no_grad():
            image = image.to(self.model.device)
            latents = self.model.vae.encode(image * 2 - 1) * self.model.vae.scaling_factor
        return latents

    def decode_tensor_to_latent(self, latents):
        return latents / self.model.vae.scaling_factor

    def dissolve(self, input, step):
        latents = self.encode_tensor_to_latent(input)
        noise = torch.randn_like(latents) * (step / self.num_ddim_steps)
        return self.decode_tensor_to_latent(latents + noise)

class StableDiffusionDissolving(nn.Module):
    def __init__(self, version="2.1"):
        super().__init__()
        self._dslv = _DissolvingWraper_HF(StableDiffusionPipeline())

    def forward(self, input, step_number):
        return self._dslv.dissolve(input, step_number)

dissolve = StableDiffusionDissolving()
img = torch.rand(1, 3, 64, 64, dtype=torch.float64)
'''
CELL = '''
out = dissolve(img, step_number=500)
'''
EXPECT_ERROR = "Input type (double) and bias type (float) should be the same"
CULPRITS = ["dissolve._dslv"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            image = image.to(self.model.device)",
                  "            image = image.to(device=self.model.device, dtype=self.model.dtype)")
CLEAN = False
