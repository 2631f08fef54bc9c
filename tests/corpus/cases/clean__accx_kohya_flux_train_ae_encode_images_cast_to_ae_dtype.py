"""Look-alike: kohya sd-scripts flux_train.py under bf16: float32 dataloader images are cast to `ae.dtype` at the encode, the latents to `weight_dtype`.

Source: https://github.com/kohya-ss/sd-scripts/blob/main/flux_train.py
The AutoEncoder is moved with `ae.to(accelerator.device, dtype=weight_dtype)` (bf16) and the prepared
dataloader yields float32 images in [-1, 1]; when latents are not cached the step encodes
`ae.encode(batch["images"].to(ae.dtype)).to(accelerator.device, dtype=weight_dtype)`. A float32 batch next to a
bf16 model is by design here: the cast happens at the call. Stand-ins: a small Flux `AutoEncoder` with the
`dtype` property of library/flux_models.py and a list of batch dicts.
"""

SIM = "cpu"
FAMILY = "clean"
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
        latents = ae.encode(batch["images"].to(ae.dtype)).to(accelerator.device, dtype=weight_dtype)

# NaNが含まれていれば警告を表示し0に置き換える
if torch.any(torch.isnan(latents)):
    latents = torch.nan_to_num(latents, 0, out=latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
