"""Look-alike: DreamBooth LoRA (Flux2) with `--offload`: the VAE lives on the CPU and is brought to cuda:0 only inside `offload_models` for the encode.

Source: https://github.com/huggingface/diffusers/blob/main/examples/dreambooth/train_dreambooth_lora_flux2.py
With `--offload`, the frozen VAE is kept on the CPU between uses. Each step does
`with offload_models(vae, device=accelerator.device, offload=args.offload):` and, inside the block, sends
`batch["pixel_values"]` to `accelerator.device` in `vae.dtype` and calls `vae.encode(...).latent_dist.mode()`;
on exit the VAE goes back to the CPU while the latents stay on cuda:0. A CPU model next to cuda:0 batches is
by design. Stand-ins: diffusers' `offload_models` context manager, an `Accelerator` whose prepared dataloader
yields device batches, and a small `AutoencoderKL`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
    pixel_values = batch["pixel_values"].to(device=accelerator.device, dtype=vae.dtype)
    model_input = vae.encode(pixel_values).latent_dist.mode()
model_input = model_input * 0.3611
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
