"""DreamBooth LoRA (Flux2) with `--offload`: `vae.encode` runs after the `offload_models` block, when the VAE is back on the CPU.

Source: https://github.com/huggingface/diffusers/pull/13417
With `--offload` and latents not precomputed, the training loop cast the batch inside
`with offload_models(vae, device=accelerator.device, offload=args.offload):` but called
`vae.encode(pixel_values)` after the block had exited, so the VAE had already been moved back to the CPU
while the prepared dataloader's `pixel_values` were on the GPU: "RuntimeError: Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same". The fix moves the encode
inside the block (and sends `pixel_values` to `accelerator.device`), i.e. the VAE must be on the accelerator
device when it encodes. Stand-ins: diffusers' `offload_models` context manager (moves the modules to
`device`, back to their original device on exit), an `Accelerator` whose prepared dataloader yields device
batches, and a small `AutoencoderKL` (conv_in, GroupNorm, conv_out, diagonal Gaussian posterior).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import contextlib
from types import SimpleNamespace
import torch
import torch.nn as nn


@contextlib.contextmanager
def offload_models(*modules, device, offload=True):
    """diffusers.training_utils.offload_models: move to `device` for the block, then back."""
    if offload:
        original_devices = [next(m.parameters()).device for m in modules]
        for m in modules:
            m.to(device)
    try:
        yield
    finally:
        if offload:
            for m, orig_dev in zip(modules, original_devices):
                m.to(orig_dev)


class DiagonalGaussianDistribution:
    def __init__(self, parameters):
        self.mean, self.logvar = torch.chunk(parameters, 2, dim=1)

    def mode(self):
        return self.mean


class AutoencoderKL(nn.Module):
    def __init__(self, ch=32, latent=4):
        super().__init__()
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.norm_out = nn.GroupNorm(8, ch)
        self.conv_out = nn.Conv2d(ch, 2 * latent, 3, padding=1)

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def encode(self, x):
        h = self.conv_out(torch.nn.functional.silu(self.norm_out(self.conv_in(x))))
        return SimpleNamespace(latent_dist=DiagonalGaussianDistribution(h))


class Accelerator:
    def __init__(self):
        self.device = torch.device("cuda:0")

    def prepare_data_loader(self, batches):
        return [{k: v.to(self.device) for k, v in b.items()} for b in batches]


args = SimpleNamespace(offload=True, cache_latents=False)
accelerator = Accelerator()
vae = AutoencoderKL()          # with --offload the VAE lives on the CPU between uses
train_dataloader = accelerator.prepare_data_loader(
    [{"pixel_values": torch.randn(1, 3, 16, 16)} for _ in range(2)])
batch = train_dataloader[0]
'''
CELL = '''
with offload_models(vae, device=accelerator.device, offload=args.offload):
    pixel_values = batch["pixel_values"].to(dtype=vae.dtype)
model_input = vae.encode(pixel_values).latent_dist.mode()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["vae"]
FIX = "namespace"
REFERENCE_FIX = '''
vae.to(accelerator.device)
'''
REFERENCE_EDIT = None
CLEAN = False
