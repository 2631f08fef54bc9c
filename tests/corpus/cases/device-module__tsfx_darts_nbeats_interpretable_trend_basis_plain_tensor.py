"""darts NBEATSModel(generic_architecture=False) on a GPU: the trend/seasonality bases `T`/`S` are plain tensors left on the CPU.

Source: https://github.com/unit8co/darts/issues/298
"NBEATS mismatch for tensor on GPU vs CPU": with `generic_architecture=False`, `nbeatsModel.fit(...)`
on a GPU machine fails because "there is a tensor assigned to CPU while the rest is GPU". The fix
(PR #345, "Fixes #298") explains it: `_TrendGenerator.T` and `_SeasonalityGenerator.S` are plain
tensor attributes built in `__init__`, never registered, so `model.to(device)` leaves them on the
CPU; they were wrapped in `nn.Parameter(..., False)`. Stand-ins: the interpretable N-BEATS
block/stack/module as in darts 0.8 (reduced widths; only the interpretable branch is kept) and an NBEATSModel whose `fit` moves the
network and each batch to the torch device (backward/step left out: fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class _TrendGenerator(nn.Module):
    def __init__(self, expansion_coefficient_dim, output_dim):
        super(_TrendGenerator, self).__init__()
        self.T = torch.stack([(torch.arange(output_dim) / output_dim)**i for i in range(expansion_coefficient_dim)], 1)

    def forward(self, x):
        return torch.matmul(x, self.T.float().T)

class _SeasonalityGenerator(nn.Module):
    def __init__(self, output_dim):
        super(_SeasonalityGenerator, self).__init__()
        half_minus_one = int(output_dim / 2 - 1)
        cos_vectors = [torch.cos(torch.arange(output_dim) * 2 * np.pi * i) for i in range(1, half_minus_one + 1)]
        sin_vectors = [torch.sin(torch.arange(output_dim) * 2 * np.pi * i) for i in range(1, half_minus_one + 1)]
        self.S = torch.stack([torch.ones(output_dim)] + cos_vectors + sin_vectors, 1)

    def forward(self, x):
        return torch.matmul(x, self.S.float().T)

class _Block(nn.Module):
    def __init__(self, num_layers, layer_width, expansion_coefficient_dim, input_chunk_length, target_length, g_type):
        super(_Block, self).__init__()
        self.relu = nn.ReLU()
        self.linear_layer_stack_list = nn.ModuleList(
            [nn.Linear(input_chunk_length, layer_width)] +
            [nn.Linear(layer_width, layer_width) for _ in range(num_layers - 1)])
        if g_type == "seasonality":
            self.backcast_linear_layer = nn.Linear(layer_width, 2 * int(input_chunk_length / 2 - 1) + 1)
            self.forecast_linear_layer = nn.Linear(layer_width, 2 * int(target_length / 2 - 1) + 1)
            self.backcast_g = _SeasonalityGenerator(input_chunk_length)
            self.forecast_g = _SeasonalityGenerator(target_length)
        else:
            self.backcast_linear_layer = nn.Linear(layer_width, expansion_coefficient_dim)
            self.forecast_linear_layer = nn.Linear(layer_width, expansion_coefficient_dim)
            self.backcast_g = _TrendGenerator(expansion_coefficient_dim, input_chunk_length)
            self.forecast_g = _TrendGenerator(expansion_coefficient_dim, target_length)

    def forward(self, x):
        for layer in self.linear_layer_stack_list:
            x = self.relu(layer(x))
        theta_backcast = self.backcast_linear_layer(x)
        theta_forecast = self.forecast_linear_layer(x)
        return self.backcast_g(theta_backcast), self.forecast_g(theta_forecast)

class _Stack(nn.Module):
    def __init__(self, num_blocks, num_layers, layer_width, expansion_coefficient_dim, input_chunk_length, target_length, g_type):
        super(_Stack, self).__init__()
        self.blocks_list = nn.ModuleList([
            _Block(num_layers, layer_width, expansion_coefficient_dim, input_chunk_length, target_length, g_type)
            for _ in range(num_blocks)])

    def forward(self, x):
        stack_forecast = 0
        for block in self.blocks_list:
            x_hat, y_hat = block(x)
            stack_forecast = stack_forecast + y_hat
            x = x - x_hat
        return x, stack_forecast

class _NBEATSModule(nn.Module):
    def __init__(self, input_chunk_length, target_length, trend_polynomial_degree, num_blocks, num_layers, layer_widths):
        super(_NBEATSModule, self).__init__()
        self.stacks_list = nn.ModuleList([
            _Stack(num_blocks, num_layers, layer_widths, trend_polynomial_degree + 1, input_chunk_length, target_length, "trend"),
            _Stack(num_blocks, num_layers, layer_widths, -1, input_chunk_length, target_length, "seasonality"),
        ])

    def forward(self, x):
        x = x[:, :, 0]
        y = 0
        for stack in self.stacks_list:
            stack_residual, stack_forecast = stack(x)
            y = y + stack_forecast
            x = stack_residual
        return y.unsqueeze(-1)

class NBEATSModel:
    def __init__(self, input_chunk_length, output_chunk_length, generic_architecture=True, num_blocks=1,
                 num_layers=2, layer_widths=32, trend_polynomial_degree=2, n_epochs=1, batch_size=16,
                 model_name="nbeats", torch_device_str="cuda:0"):
        self.input_chunk_length, self.output_chunk_length = input_chunk_length, output_chunk_length
        self.n_epochs, self.batch_size, self.model_name = n_epochs, batch_size, model_name
        self.device = torch.device(torch_device_str)
        self.model = _NBEATSModule(input_chunk_length, output_chunk_length, trend_polynomial_degree,
                                   num_blocks, num_layers, layer_widths)
        self.model = self.model.to(self.device)
        self.criterion = nn.MSELoss()

    def _windows(self, values):
        xs, ys = [], []
        for i in range(len(values) - self.input_chunk_length - self.output_chunk_length + 1):
            xs.append(values[i:i + self.input_chunk_length])
            ys.append(values[i + self.input_chunk_length:i + self.input_chunk_length + self.output_chunk_length])
        return torch.from_numpy(np.stack(xs)).float(), torch.from_numpy(np.stack(ys)).float()

    def fit(self, series, val_series=None, verbose=False):
        x, y = self._windows(series)
        for epoch in range(self.n_epochs):
            for i in range(0, len(x), self.batch_size):
                data = x[i:i + self.batch_size].to(self.device)
                target = y[i:i + self.batch_size].to(self.device)
                output = self.model(data)
                loss = self.criterion(output, target)
                # loss.backward(); optimizer.step()  -- left out of the stand-in
        return self

rng = np.random.default_rng(0)
t = np.arange(300)
rescaled_train = (np.sin(t / 12) + 0.01 * t + 0.1 * rng.normal(size=300)).astype(np.float32)[:, None]
rescaled_test = rescaled_train[-60:]
nbeatsModel = NBEATSModel(input_chunk_length=24, output_chunk_length=12, generic_architecture=False,
                          num_blocks=2, n_epochs=1, model_name="nbeats_run_interp")
'''
CELL = '''
nbeatsModel.fit(rescaled_train, val_series=rescaled_test, verbose=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["nbeatsModel.model"]
FIX = "namespace"
REFERENCE_FIX = '''
for m in nbeatsModel.model.modules():
    if isinstance(m, _TrendGenerator):
        m.T = m.T.to("cuda:0")
    if isinstance(m, _SeasonalityGenerator):
        m.S = m.S.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
