"""MerLin QuantumLayer.simple fed make_moons features as float64: the complex state meets the complex64 unitary.

Source: https://github.com/merlinquantum/merlin/issues/26
The user scaled `make_moons` data with MinMaxScaler, wrapped it with `X = torch.tensor(X)` (float64)
and called `nn.Sequential(ML.QuantumLayer.simple(input_size=2, n_params=50), nn.Sigmoid())` on it:
"RuntimeError: expected scalar type ComplexDouble but found ComplexFloat". The layer's unitary is
complex64 (float32 parameters) while the encoded input phases follow the float64 input; casting the
input to float32 makes it run (the issue asked for a clearer error message).
Stand-in: QuantumLayer.simple reduced to a phase encoding of the input and a complex64 unitary
built from its float32 parameters; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class QuantumLayer(nn.Module):
    def __init__(self, input_size, n_params):
        super().__init__()
        self.input_size = input_size
        self.n_modes = 4
        self.theta = nn.Parameter(torch.rand(n_params))

    @classmethod
    def simple(cls, input_size, n_params):
        return cls(input_size, n_params)

    def _unitary(self):
        phases = self.theta[: self.n_modes * self.n_modes].reshape(self.n_modes, self.n_modes)
        return torch.polar(torch.ones_like(phases), phases) / self.n_modes ** 0.5

    def forward(self, x):
        phase = torch.cat([x, x[:, :1] * 0, x[:, 1:] * 2], dim=1)[:, : self.n_modes]
        state = torch.polar(torch.ones_like(phase), phase)
        out = torch.matmul(state, self._unitary())
        return out.abs()[:, : self.input_size]

rng = np.random.default_rng(42)
X = rng.random((100, 2))                 # make_moons + MinMaxScaler().fit_transform: float64
y = (X[:, 0] > 0.5).astype(np.int64)
X = torch.tensor(X)
y = torch.tensor(y)
model = nn.Sequential(QuantumLayer.simple(input_size=2, n_params=50), nn.Sigmoid())
'''
CELL = '''
out = model(X)
print(out.shape)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "ComplexDouble", "ComplexFloat")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
