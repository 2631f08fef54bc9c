"""Look-alike: MinkowskiEngine's indoor example keeps the batched coordinates on the CPU and lets the tensor move them.

Source: https://github.com/NVIDIA/MinkowskiEngine/blob/master/examples/indoor.py
The example builds `coordinates=ME.utils.batched_coordinates([coords / voxel_size])` on the CPU,
features with `.to(device)`, and hands both to the sparse tensor together with `device=device`:
the constructor moves the coordinates to the features' device. A CPU coordinate tensor next to a
GPU model and GPU features, on purpose, and the cell runs. Stand-ins: `SparseTensor` reduced to
the device handling and a neighbour table; the MinkUNet to one linear "convolution".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def batched_coordinates(coords_list, dtype=torch.int32):
    """ME.utils.batched_coordinates: prepend the batch index; always returns a CPU tensor."""
    out = [torch.cat([torch.full((len(c), 1), b, dtype=dtype), torch.as_tensor(c).to(dtype)], 1)
           for b, c in enumerate(coords_list)]
    return torch.cat(out, 0)

class SparseTensor:
    def __init__(self, features, coordinates, device=None):
        if device is not None:
            features = features.to(device)
            coordinates = coordinates.to(device)
        self.F = features
        self.C = coordinates
        self.device = features.device

class MinkowskiLinearConv(nn.Module):
    """Stand-in for a MinkowskiConvolution: mixes each voxel with a fixed set of neighbours."""
    def __init__(self, in_ch, out_ch, k=8):
        super().__init__()
        self.k = k
        self.linear = nn.Linear(in_ch * k, out_ch)

    def forward(self, x):
        n = x.F.shape[0]
        nbr = (torch.arange(n, device=x.device)[:, None] + torch.arange(self.k, device=x.device)) % n
        gathered = x.F.index_select(0, nbr.reshape(-1)).reshape(n, -1)
        return SparseTensor(self.linear(gathered), x.C)

device = torch.device("cuda:0")
model = nn.Sequential(MinkowskiLinearConv(3, 32)).to(device).eval()

voxel_size = 0.02
coords = torch.rand(500, 3) * 2.0
colors = torch.rand(500, 3)
coordinates = batched_coordinates([coords / voxel_size])         # int32, CPU
features = (colors - 0.5).to(device)
'''
CELL = '''
sinput = SparseTensor(features=features, coordinates=coordinates, device=device)
logits = model(sinput).F
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
