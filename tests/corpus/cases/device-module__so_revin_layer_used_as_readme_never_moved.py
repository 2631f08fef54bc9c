"""RevIN used as in its README (`revin_layer = RevIN(num_features)` beside the model): its affine parameters stay on the CPU.

Source: https://github.com/ts-kim/RevIN/pull/8
The PR was opened to "solve question RuntimeError: Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!" by creating RevIN's `affine_weight`/`affine_bias`
on CUDA; the maintainer declined: that pins the layer to cuda:0. The README's usage builds the
layer on its own (`revin_layer = RevIN(num_features)`, then `revin_layer(x_in, 'norm')`, the model,
`revin_layer(x_out, 'denorm')`), so moving only the forecasting model to the GPU leaves RevIN's
parameters behind; the layer itself has to be moved (or made a submodule of the model). Stand-in:
the RevIN class as in the repository, a linear forecaster over a cuda batch.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class RevIN(nn.Module):
    def __init__(self, num_features: int, eps=1e-5, affine=True):
        super(RevIN, self).__init__()
        self.num_features = num_features
        self.eps = eps
        self.affine = affine
        if self.affine:
            self._init_params()

    def forward(self, x, mode: str):
        if mode == 'norm':
            self._get_statistics(x)
            x = self._normalize(x)
        elif mode == 'denorm':
            x = self._denormalize(x)
        else:
            raise NotImplementedError
        return x

    def _init_params(self):
        self.affine_weight = nn.Parameter(torch.ones(self.num_features))
        self.affine_bias = nn.Parameter(torch.zeros(self.num_features))

    def _get_statistics(self, x):
        dim2reduce = tuple(range(1, x.ndim - 1))
        self.mean = torch.mean(x, dim=dim2reduce, keepdim=True).detach()
        self.stdev = torch.sqrt(torch.var(x, dim=dim2reduce, keepdim=True, unbiased=False) + self.eps).detach()

    def _normalize(self, x):
        x = x - self.mean
        x = x / self.stdev
        if self.affine:
            x = x * self.affine_weight
            x = x + self.affine_bias
        return x

    def _denormalize(self, x):
        if self.affine:
            x = x - self.affine_bias
            x = x / (self.affine_weight + self.eps * self.eps)
        x = x * self.stdev
        x = x + self.mean
        return x

class Forecaster(nn.Module):
    def __init__(self, seq_len, pred_len):
        super().__init__()
        self.proj = nn.Linear(seq_len, pred_len)
    def forward(self, x):                       # (batch, seq_len, features)
        return self.proj(x.transpose(1, 2)).transpose(1, 2)

device = torch.device("cuda:0")
num_features, seq_len = 7, 96
model = Forecaster(seq_len, seq_len).to(device)
revin_layer = RevIN(num_features)
x_in = torch.randn(16, seq_len, num_features, device=device)
'''
CELL = '''
x_in = revin_layer(x_in, 'norm')
x_out = model(x_in)
x_out = revin_layer(x_out, 'denorm')
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["revin_layer"]
FIX = "namespace"
REFERENCE_FIX = '''
revin_layer = revin_layer.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
