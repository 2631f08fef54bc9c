"""neuraloperator `PTDataset` casts the inputs `x` to float32 on load, so an `FNO(complex_data=True)` gets real tensors from complex data.

Source: https://github.com/neuraloperator/neuraloperator/issues/724
"Complex data processing": mapping real data to a complex field with `FNO(..., complex_data=True)`,
training raised "imag is not implemented for tensors with non-complex dtypes", also after the user
saved the inputs as complex64. The user then found that `PTDataset` does
`x_train = data["x"].type(torch.float32).clone()` (and the same for `x_test`); the `ComplexValued`
wrappers of the lifting/projection read `.real`/`.imag` of their input. Fixed in neuraloperator#727 by
keeping the stored dtype. Stand-in: `PTDataset` reduced to the train split from an in-memory dict,
an FNO with `ComplexValued` lifting/projection and one complex spectral convolution, one training
step with an Lp loss.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from copy import deepcopy
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

class PTDataset:
    def __init__(self, data, n_train):
        x_train = data["x"].type(torch.float32).clone()[:n_train]
        y_train = data["y"].clone()[:n_train]
        self._train_db = TensorDataset(x_train, y_train)
    @property
    def train_db(self):
        return self._train_db

def apply_complex(fr, fi, x, dtype=torch.cfloat):
    return (fr(x.real) - fi(x.imag)).type(dtype) + 1j * (fr(x.imag) + fi(x.real)).type(dtype)

class ComplexValued(nn.Module):
    def __init__(self, mod):
        super().__init__()
        self.fr = deepcopy(mod)
        self.fi = deepcopy(mod)
    def forward(self, x):
        return apply_complex(self.fr, self.fi, x)

class SpectralConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, n_modes):
        super().__init__()
        self.n_modes = n_modes
        self.weight = nn.Parameter(torch.randn(in_channels, out_channels, *n_modes, dtype=torch.cfloat) / (in_channels * out_channels))
    def forward(self, x):
        x_ft = torch.fft.fft2(x, norm="forward")
        m1, m2 = self.n_modes
        out_ft = torch.zeros(x.shape[0], self.weight.shape[1], *x.shape[-2:], dtype=torch.cfloat)
        out_ft[:, :, :m1, :m2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m1, :m2], self.weight)
        return torch.fft.ifft2(out_ft, s=x.shape[-2:], norm="forward")

class FNO(nn.Module):
    def __init__(self, n_modes, in_channels, out_channels, hidden_channels, complex_data=False):
        super().__init__()
        lifting = nn.Conv2d(in_channels, hidden_channels, 1)
        projection = nn.Conv2d(hidden_channels, out_channels, 1)
        self.lifting = ComplexValued(lifting) if complex_data else lifting
        self.fno_block = SpectralConv2d(hidden_channels, hidden_channels, n_modes)
        self.projection = ComplexValued(projection) if complex_data else projection
    def forward(self, x):
        x = self.lifting(x)
        x = x + self.fno_block(x)
        return self.projection(x)

class LpLoss:
    def __call__(self, y_pred, y):
        diff = torch.linalg.vector_norm((y_pred - y).flatten(1), dim=-1)
        return (diff / torch.linalg.vector_norm(y.flatten(1), dim=-1)).mean()

data = {"x": torch.randn(16, 1, 16, 16, dtype=torch.cfloat),      # the user's inputs, saved as complex64
        "y": torch.randn(16, 1, 16, 16, dtype=torch.cfloat)}
dataset = PTDataset(data, n_train=16)
train_loader = DataLoader(dataset.train_db, batch_size=8, shuffle=True)
model = FNO(n_modes=(8, 8), in_channels=1, out_channels=1, hidden_channels=16, complex_data=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=8e-3)
train_loss = LpLoss()
'''
CELL = '''
for x, y in train_loader:
    optimizer.zero_grad()
    out = model(x)
    loss = train_loss(out, y)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = "imag is not implemented for tensors with non-complex dtypes"
CULPRITS = ["dataset.train_db"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('x_train = data["x"].type(torch.float32).clone()[:n_train]', 'x_train = data["x"].clone()[:n_train]')
CLEAN = False
