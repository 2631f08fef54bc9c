"""TorchGeo transforms tutorial: `MinMaxNormalize` keeps its band statistics as plain tensor attributes, so `transforms_gpu.to(device)` leaves them on the CPU.

Source: https://github.com/torchgeo/torchgeo/issues/763
"Transforms tutorial fails if GPU available": the cell `_ = transforms_gpu(batch_gpu)` raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" at
`x = (x - self.min[None, ...]) / self.denominator[None, ...]` in the tutorial's custom
`MinMaxNormalize(nn.Module)`. Its per-band `min` and `denominator` are plain tensors set in
`__init__`, which `nn.Sequential(...).to(device)` does not move, while the batch was moved to the
GPU. Stand-ins: `indices.AppendNDWI` (same index arithmetic), the EuroSAT batch by random tensors.
Run on cpu + meta ("meta" plays the GPU).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from torch import Tensor

class MinMaxNormalize(nn.Module):
    """Normalize channels to the range [0, 1] using min/max values."""

    def __init__(self, min: Tensor, max: Tensor) -> None:
        super().__init__()
        self.min = min[:, None, None]
        self.max = max[:, None, None]
        self.denominator = (self.max - self.min)

    @torch.no_grad()
    def forward(self, inputs: dict[str, Tensor]) -> dict[str, Tensor]:
        x = inputs["image"]
        # Batch
        if x.ndim == 4:
            x = (x - self.min[None, ...]) / self.denominator[None, ...]
        # Sample
        else:
            x = (x - self.min) / self.denominator
        inputs["image"] = x.clamp(0, 1)
        return inputs

class AppendNDWI(nn.Module):                     # torchgeo.transforms.indices.AppendNDWI
    def __init__(self, index_green: int, index_nir: int) -> None:
        super().__init__()
        self.index_green, self.index_nir = index_green, index_nir

    def forward(self, inputs: dict[str, Tensor]) -> dict[str, Tensor]:
        x = inputs["image"]
        g, n = x[:, self.index_green], x[:, self.index_nir]
        index = (g - n) / (g + n + 1e-10)
        inputs["image"] = torch.cat([x, index.unsqueeze(1)], dim=1)
        return inputs

mins = torch.tensor([1013.0, 676.0, 448.0, 247.0, 269.0, 253.0, 243.0, 189.0, 61.0, 4.0, 33.0, 11.0, 186.0])
maxs = torch.tensor([2309.0, 4543.05, 4720.2, 5293.05, 3902.05, 4473.0, 5447.0, 5948.05, 1829.0, 23.0, 4894.05, 4076.05, 5846.0])

device = "meta"                                  # "cuda" if torch.cuda.is_available() else "cpu"
transforms_gpu = nn.Sequential(
    MinMaxNormalize(mins, maxs),
    AppendNDWI(index_green=2, index_nir=7),
).to(device)

batch = {"image": torch.rand(8, 13, 64, 64) * 3000, "label": torch.randint(0, 10, (8,))}
batch_gpu = {k: v.to(device) for k, v in batch.items()}
'''
CELL = '''
_ = transforms_gpu(batch_gpu)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["transforms_gpu[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.min = min[:, None, None]
        self.max = max[:, None, None]
        self.denominator = (self.max - self.min)
""", """        self.register_buffer("min", min[:, None, None])
        self.register_buffer("max", max[:, None, None])
        self.register_buffer("denominator", self.max - self.min)
""")
CLEAN = False
