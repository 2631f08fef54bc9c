"""FastKAN keeps its RBF centres as an `nn.Parameter(requires_grad=False)` made on the CPU: it follows `.to(device)` like a weight.

Source: https://github.com/ZiyaoLi/fast-kan/blob/master/fastkan/fastkan.py
Look-alike: `RadialBasisFunction` builds `grid = torch.linspace(grid_min, grid_max, num_grids)` in
__init__ and evaluates `exp(-((x[..., None] - grid) / denominator) ** 2)`; the grid is a frozen Parameter,
so it is moved with the model. Stand-in: FastKANLayer/FastKAN as in the repo (`[..., None]` written as
unsqueeze, SplineLinear init reduced to randn).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SplineLinear(nn.Linear):
    def __init__(self, in_features, out_features, init_scale=0.1, **kw):
        self.init_scale = init_scale
        super().__init__(in_features, out_features, bias=False, **kw)

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.copy_(torch.randn(self.weight.shape) * self.init_scale)   # trunc_normal_ reduced

class RadialBasisFunction(nn.Module):
    def __init__(self, grid_min=-2., grid_max=2., num_grids=8, denominator=None):
        super().__init__()
        grid = torch.linspace(grid_min, grid_max, num_grids)
        self.grid = torch.nn.Parameter(grid, requires_grad=False)
        self.denominator = denominator or (grid_max - grid_min) / (num_grids - 1)

    def forward(self, x):
        return torch.exp(-((x.unsqueeze(-1) - self.grid) / self.denominator) ** 2)

class FastKANLayer(nn.Module):
    def __init__(self, input_dim, output_dim, grid_min=-2., grid_max=2., num_grids=8, use_base_update=True,
                 base_activation=F.silu, spline_weight_init_scale=0.1):
        super().__init__()
        self.layernorm = nn.LayerNorm(input_dim)
        self.rbf = RadialBasisFunction(grid_min, grid_max, num_grids)
        self.spline_linear = SplineLinear(input_dim * num_grids, output_dim, spline_weight_init_scale)
        self.use_base_update = use_base_update
        if use_base_update:
            self.base_activation = base_activation
            self.base_linear = nn.Linear(input_dim, output_dim)

    def forward(self, x):
        spline_basis = self.rbf(self.layernorm(x))
        ret = self.spline_linear(spline_basis.view(*spline_basis.shape[:-2], -1))
        if self.use_base_update:
            ret = ret + self.base_linear(self.base_activation(x))
        return ret

class FastKAN(nn.Module):
    def __init__(self, layers_hidden, grid_min=-2., grid_max=2., num_grids=8):
        super().__init__()
        self.layers = nn.ModuleList([FastKANLayer(i, o, grid_min=grid_min, grid_max=grid_max, num_grids=num_grids)
                                     for i, o in zip(layers_hidden[:-1], layers_hidden[1:])])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

device = torch.device("cuda:0")
model = FastKAN([28 * 28, 64, 10]).to(device)
x = torch.rand(16, 28 * 28)
'''
CELL = '''
with torch.no_grad():
    logits = model(x.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
