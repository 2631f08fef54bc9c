"""kohya sd-scripts flux_train.py (bf16, latents not cached): the bf16 AutoEncoder gets the dataloader's float32 images.

Source: https://github.com/kohya-ss/sd-scripts/issues/1562
"Flux: RuntimeError: Input type (float) and bias type (c10::BFloat16) should be the same" at
`latents = ae.encode(batch["images"])` (flux_train.py line 654). The script loads the AE and moves it with
`ae.to(accelerator.device, dtype=weight_dtype)` (bf16 under `--mixed_precision bf16`), while the batches the
prepared dataloader yields keep float32 images. Fixed by the commit "set dtype before calling ae closes
#1562": `ae.encode(batch["images"].to(ae.dtype))`. Stand-ins: a small Flux `AutoEncoder` (conv encoder,
DiagonalGaussian regulariser, `dtype` property as in library/flux_models.py) and a list of batch dicts for
the prepared dataloader.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
from torch import Tensor


class Encoder(nn.Module):
    def __init__(self, in_channels=3, ch=16, z_channels=4):
        super().__init__()
        self.conv_in = nn.Conv2d(in_channels, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.conv_out = nn.Conv2d(ch, 2 * z_channels, 3, padding=1)

    def forward(self, x):
        hs = [self.conv_in(x)]
        h = torch.nn.functional.silu(self.down(hs[-1]))
        return self.conv_out(h)


class DiagonalGaussian(nn.Module):
    def forward(self, z: Tensor) -> Tensor:
        mean, logvar = torch.chunk(z, 2, dim=1)
        return mean


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.reg = DiagonalGaussian()
        self.scale_factor = 0.3611
        self.shift_factor = 0.1159

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


class Accelerator:
    def __init__(self, mixed_precision="no"):
        self.mixed_precision = mixed_precision
        self.device = torch.device("cpu")


accelerator = Accelerator(mixed_precision="bf16")
weight_dtype = torch.bfloat16 if accelerator.mixed_precision == "bf16" else torch.float32

ae = AutoEncoder()                               # flux_utils.load_ae(name, args.ae, weight_dtype, "cpu")
ae.requires_grad_(False)
ae.eval()
ae.to(accelerator.device, dtype=weight_dtype)

# batches from the prepared dataloader (images are [-1, 1], float32); latents are not cached
train_dataloader = [{"images": torch.rand(1, 3, 32, 32) * 2 - 1, "latents": None} for _ in range(2)]
batch = train_dataloader[0]
'''
CELL = '''
if "latents" in batch and batch["latents"] is not None:
    latents = batch["latents"].to(accelerator.device, dtype=weight_dtype)
else:
    with torch.no_grad():
        # encode images to latents. images are [-1, 1]
        latents = ae.encode(batch["images"])
'''
EXPECT_ERROR = ("should be the same", "must have the same dtype", "expected scalar type")
CULPRITS = ["batch['images']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["images"] = batch["images"].to(ae.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
