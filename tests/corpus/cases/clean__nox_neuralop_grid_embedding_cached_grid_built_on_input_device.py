"""Look-alike: neuralop's `GridEmbedding2D` caches its coordinate grid in a plain attribute, but builds it from the input's device on first use.

Source: https://github.com/neuraloperator/neuraloperator/blob/main/neuralop/layers/embeddings.py
`GridEmbedding2D.grid` makes the grid with `regular_grid_2d` (`torch.linspace(...)` on the CPU), then
`grid_x.to(device).to(dtype)` with `device=data.device`, and stores it in `self._grid` (not a buffer,
so `Module.to()` does not see it) until the resolution changes; `forward` concatenates it to the
input. Here the model is moved to the GPU before its first forward, so the cached grid is created on
the GPU and every later call at the same resolution reuses it there. Reduced: the embedding as in the
library, a lifting/projection pair of 1x1 convolutions as the rest of the FNO, two forward calls.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def regular_grid_2d(spatial_dims, grid_boundaries=[[0, 1], [0, 1]]):
    height, width = spatial_dims
    xt = torch.linspace(grid_boundaries[0][0], grid_boundaries[0][1], height + 1)[:-1]
    yt = torch.linspace(grid_boundaries[1][0], grid_boundaries[1][1], width + 1)[:-1]
    grid_x, grid_y = torch.meshgrid(xt, yt, indexing="ij")
    grid_x = grid_x.repeat(1, 1)
    grid_y = grid_y.repeat(1, 1)
    return grid_x, grid_y

class GridEmbedding2D(nn.Module):
    def __init__(self, in_channels, grid_boundaries=[[0, 1], [0, 1]]):
        super().__init__()
        self.in_channels = in_channels
        self.grid_boundaries = grid_boundaries
        self._grid = None
        self._res = None

    @property
    def out_channels(self):
        return self.in_channels + 2

    def grid(self, spatial_dims, device, dtype):
        if self._grid is None or self._res != spatial_dims:
            grid_x, grid_y = regular_grid_2d(spatial_dims, grid_boundaries=self.grid_boundaries)
            grid_x = grid_x.to(device).to(dtype).unsqueeze(0).unsqueeze(0)
            grid_y = grid_y.to(device).to(dtype).unsqueeze(0).unsqueeze(0)
            self._grid = grid_x, grid_y
            self._res = spatial_dims
        return self._grid

    def forward(self, data, batched=True):
        batch_size = data.shape[0]
        x, y = self.grid(data.shape[-2:], data.device, data.dtype)
        return torch.cat((data, x.expand(batch_size, -1, -1, -1), y.expand(batch_size, -1, -1, -1)), dim=1)

class TinyFNO(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, hidden_channels=8):
        super().__init__()
        self.positional_embedding = GridEmbedding2D(in_channels=in_channels)
        self.lifting = nn.Conv2d(self.positional_embedding.out_channels, hidden_channels, 1)
        self.projection = nn.Conv2d(hidden_channels, out_channels, 1)

    def forward(self, x, **kwargs):
        x = self.positional_embedding(x)
        return self.projection(torch.nn.functional.gelu(self.lifting(x)))

device = torch.device("cuda:0")
model = TinyFNO().to(device)
x = torch.randn(4, 1, 32, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    out = model(x)
    out2 = model(x * 2.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
