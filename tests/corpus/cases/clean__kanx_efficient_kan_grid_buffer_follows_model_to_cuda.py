"""efficient-kan keeps the B-spline grid as a registered buffer, built on the CPU in __init__: `model.to(device)` moves it with the weights.

Source: https://github.com/Blealtan/efficient-kan/blob/master/src/efficient_kan/kan.py
Look-alike: a (in_features, G) knot tensor made with `torch.arange` on the CPU and used in every forward
beside cuda weights, but registered with `register_buffer("grid", grid)`, so it is on the GPU after
`.to(device)`. The MNIST example moves the model and each batch. Stand-in: KANLinear/KAN as in
efficient-kan (init reduced to randn, slices written as narrow()).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import nn

class KANLinear(nn.Module):
    def __init__(self, in_features, out_features, grid_size=5, spline_order=3, scale_noise=0.1,
                 scale_base=1.0, scale_spline=1.0, base_activation=torch.nn.SiLU, grid_eps=0.02, grid_range=[-1, 1]):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.grid_size = grid_size
        self.spline_order = spline_order
        h = (grid_range[1] - grid_range[0]) / grid_size
        grid = ((torch.arange(-spline_order, grid_size + spline_order + 1) * h + grid_range[0])
                .expand(in_features, -1).contiguous())
        self.register_buffer("grid", grid)
        # (kaiming_uniform_ / curve2coeff init reduced to scaled randn)
        self.base_weight = nn.Parameter(torch.randn(out_features, in_features) * scale_base / math.sqrt(in_features))
        self.spline_weight = nn.Parameter(torch.randn(out_features, in_features, grid_size + spline_order) * scale_noise / grid_size)
        self.spline_scaler = nn.Parameter(torch.ones(out_features, in_features) * scale_spline)
        self.base_activation = base_activation()
        self.grid_eps = grid_eps

    def b_splines(self, x):
        # efficient-kan b_splines; `t[..., a:b]` slices written as narrow() (same values)
        grid = self.grid
        G = grid.shape[-1]
        x = x.unsqueeze(-1)
        bases = ((x >= grid.narrow(-1, 0, G - 1)) & (x < grid.narrow(-1, 1, G - 1))).to(x.dtype)
        for k in range(1, self.spline_order + 1):
            n = bases.shape[-1]
            bases = ((x - grid.narrow(-1, 0, G - k - 1)) / (grid.narrow(-1, k, G - k - 1) - grid.narrow(-1, 0, G - k - 1)) * bases.narrow(-1, 0, n - 1)) + (
                (grid.narrow(-1, k + 1, G - k - 1) - x) / (grid.narrow(-1, k + 1, G - k - 1) - grid.narrow(-1, 1, G - k - 1)) * bases.narrow(-1, 1, n - 1))
        return bases.contiguous()

    @property
    def scaled_spline_weight(self):
        return self.spline_weight * self.spline_scaler.unsqueeze(-1)

    def forward(self, x):
        original_shape = x.shape
        x = x.reshape(-1, self.in_features)
        base_output = F.linear(self.base_activation(x), self.base_weight)
        spline_output = F.linear(self.b_splines(x).view(x.size(0), -1),
                                 self.scaled_spline_weight.view(self.out_features, -1))
        output = base_output + spline_output
        return output.reshape(*original_shape[:-1], self.out_features)

class KAN(nn.Module):
    def __init__(self, layers_hidden, grid_size=5, spline_order=3):
        super().__init__()
        self.layers = nn.ModuleList([KANLinear(i, o, grid_size=grid_size, spline_order=spline_order)
                                     for i, o in zip(layers_hidden, layers_hidden[1:])])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

device = torch.device("cuda:0")
model = KAN([28 * 28, 64, 10]).to(device)
images = torch.rand(8, 1, 28, 28)
labels = torch.randint(0, 10, (8,))
'''
CELL = '''
with torch.no_grad():
    images = images.view(-1, 28 * 28).to(device)
    output = model(images)
    loss = F.cross_entropy(output, labels.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
