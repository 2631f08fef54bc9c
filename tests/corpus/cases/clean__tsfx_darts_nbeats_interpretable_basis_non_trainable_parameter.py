"""darts N-BEATS (interpretable): trend/seasonality bases stored as `nn.Parameter(basis, requires_grad=False)`, moved by `.to()`.

Source: https://github.com/unit8co/darts/blob/master/darts/models/forecasting/nbeats.py
`_TrendGenerator` and `_SeasonalityGenerator` build their fixed polynomial / Fourier bases with
`torch.arange`/`torch.cos` on the CPU in `__init__` and keep them as non-trainable Parameters
(`self.basis = nn.Parameter(basis, requires_grad=False)`), so moving the network to the GPU moves
them. Look-alike: constant tensors made on the CPU inside a module's `__init__`, which `.to()` does
carry. Stand-in: the two generators as in darts and one trend + one seasonality block.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class _TrendGenerator(nn.Module):
    def __init__(self, expansion_coefficient_dim, target_length):
        super().__init__()
        basis = torch.stack(
            [(torch.arange(target_length) / target_length) ** i for i in range(expansion_coefficient_dim)],
            dim=1,
        ).T
        self.basis = nn.Parameter(basis, requires_grad=False)

    def forward(self, x):
        return torch.matmul(x, self.basis)

class _SeasonalityGenerator(nn.Module):
    def __init__(self, target_length):
        super().__init__()
        half_minus_one = int(target_length / 2 - 1)
        cos_vectors = [torch.cos(torch.arange(target_length) / target_length * 2 * np.pi * i) for i in range(1, half_minus_one + 1)]
        sin_vectors = [torch.sin(torch.arange(target_length) / target_length * 2 * np.pi * i) for i in range(1, half_minus_one + 1)]
        basis = torch.stack([torch.ones(target_length)] + cos_vectors + sin_vectors, dim=1).T
        self.basis = nn.Parameter(basis, requires_grad=False)

    def forward(self, x):
        return torch.matmul(x, self.basis)

class _Block(nn.Module):
    def __init__(self, input_chunk_length, target_length, layer_width, g_type, trend_polynomial_degree=2):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(input_chunk_length, layer_width), nn.ReLU(),
                                nn.Linear(layer_width, layer_width), nn.ReLU())
        if g_type == "trend":
            n_back = n_fore = trend_polynomial_degree + 1
            self.backcast_g = _TrendGenerator(n_back, input_chunk_length)
            self.forecast_g = _TrendGenerator(n_fore, target_length)
        else:
            n_back = 2 * int(input_chunk_length / 2 - 1) + 1
            n_fore = 2 * int(target_length / 2 - 1) + 1
            self.backcast_g = _SeasonalityGenerator(input_chunk_length)
            self.forecast_g = _SeasonalityGenerator(target_length)
        self.backcast_linear_layer = nn.Linear(layer_width, n_back)
        self.forecast_linear_layer = nn.Linear(layer_width, n_fore)

    def forward(self, x):
        h = self.fc(x)
        return self.backcast_g(self.backcast_linear_layer(h)), self.forecast_g(self.forecast_linear_layer(h))

class _NBEATSModule(nn.Module):
    def __init__(self, input_chunk_length, target_length, layer_width=32):
        super().__init__()
        self.blocks = nn.ModuleList([_Block(input_chunk_length, target_length, layer_width, "trend"),
                                     _Block(input_chunk_length, target_length, layer_width, "seasonality")])

    def forward(self, x):
        y = 0
        for block in self.blocks:
            x_hat, y_hat = block(x)
            x = x - x_hat
            y = y + y_hat
        return y

device = torch.device("cuda:0")
model = _NBEATSModule(input_chunk_length=24, target_length=12).to(device)
x = torch.randn(16, 24).to(device)
'''
CELL = '''
y = model(x)
print(y.shape, model.blocks[0].forecast_g.basis.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
