"""sd-scripts Flux fine-tuning without latent caching: the fp32 batch images go into the AutoEncoder loaded in bf16.

Source: https://github.com/kohya-ss/sd-scripts/issues/1562
Following the Flux full fine-tuning instructions (sd3 branch), `flux_train.py` failed at
`latents = ae.encode(batch["images"])` with "RuntimeError: Input type (float) and bias type (c10::BFloat16) should
be the same" (in the encoder's `conv_in`). Without `--cache_latents` the script loads the AE with
`flux_utils.load_ae(name, args.ae, weight_dtype, "cpu")` and `ae.to(accelerator.device, dtype=weight_dtype)`
(bf16), while the dataset yields float32 images. The fix that closed the issue casts the images to the AE's dtype:
`ae.encode(batch["images"].to(ae.dtype)).to(accelerator.device, dtype=weight_dtype)`.
Stand-ins: library/flux_models' AutoEncoder (its `dtype` property, `encode` = `reg(encoder(x))` with scale/shift,
DiagonalGaussian) with a one-conv encoder, `load_ae` and the args; one device (the CPU), so the loop's batch is
already where the AE is.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import Tensor, nn

class DiagonalGaussian(nn.Module):
    def __init__(self, sample: bool = True, chunk_dim: int = 1):
        super().__init__()
        self.sample = sample
        self.chunk_dim = chunk_dim
    def forward(self, z: Tensor) -> Tensor:
        mean, logvar = torch.chunk(z, 2, dim=self.chunk_dim)
        if self.sample:
            std = torch.exp(0.5 * logvar)
            return mean + std * torch.randn_like(mean)
        return mean

class Encoder(nn.Module):
    def __init__(self, in_channels=3, z_channels=16):
        super().__init__()
        self.conv_in = nn.Conv2d(in_channels, 32, kernel_size=3, stride=1, padding=1)
        self.conv_out = nn.Conv2d(32, 2 * z_channels, kernel_size=8, stride=8)
    def forward(self, x: Tensor) -> Tensor:
        hs = [self.conv_in(x)]
        return self.conv_out(torch.nn.functional.silu(hs[-1]))

class AutoEncoder(nn.Module):                       # library/flux_models.py (stand-in)
    def __init__(self, scale_factor=0.3611, shift_factor=0.1159):
        super().__init__()
        self.encoder = Encoder()
        self.reg = DiagonalGaussian()
        self.scale_factor = scale_factor
        self.shift_factor = shift_factor
    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device
    @property
    def dtype(self) -> torch.dtype:
        return next(self.parameters()).dtype
    def encode(self, x: Tensor) -> Tensor:
        z = self.reg(self.encoder(x))
        z = self.scale_factor * (z - self.shift_factor)
        return z

def load_ae(name, ckpt_path, dtype, device, disable_mmap=False):
    return AutoEncoder().to(device=device, dtype=dtype)

args = SimpleNamespace(mixed_precision="bf16", full_bf16=True, cache_latents=False, ae="ae.safetensors")
accelerator = SimpleNamespace(device=torch.device("cpu"))
weight_dtype = torch.bfloat16
name = "dev"
cache_latents = args.cache_latents

if not cache_latents:
    # load VAE here if not cached
    ae = load_ae(name, args.ae, weight_dtype, "cpu")
    ae.requires_grad_(False)
    ae.eval()
    ae.to(accelerator.device, dtype=weight_dtype)

batch = {"images": torch.rand(2, 3, 64, 64) * 2 - 1, "latents": None}   # images are [-1, 1], float32
'''
CELL = '''
if "latents" in batch and batch["latents"] is not None:
    latents = batch["latents"].to(accelerator.device, dtype=weight_dtype)
else:
    with torch.no_grad():
        # encode images to latents. images are [-1, 1]
        latents = ae.encode(batch["images"])
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["batch['images']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["images"] = batch["images"].to(ae.dtype)   # the fix: ae.encode(batch["images"].to(ae.dtype))
'''
REFERENCE_EDIT = None
CLEAN = False
