"""ChebyKAN multiplies the float `acos(x)` by an int64 `arange` buffer on purpose: type promotion gives float, nothing to cast.

Source: https://github.com/SynodicMonth/ChebyKAN/blob/main/ChebyKANLayer.py
Look-alike: `self.register_buffer("arange", torch.arange(0, degree + 1, 1))` is a LongTensor and forward
does `x *= self.arange` on the float activations (in-place float *= long is allowed), then einsums with the
float coefficients. Stand-in: ChebyKANLayer as in the repo and the MNIST model of its README (LayerNorm
between layers).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ChebyKANLayer(nn.Module):
    def __init__(self, input_dim, output_dim, degree):
        super().__init__()
        self.inputdim = input_dim
        self.outdim = output_dim
        self.degree = degree
        self.cheby_coeffs = nn.Parameter(torch.empty(input_dim, output_dim, degree + 1))
        nn.init.normal_(self.cheby_coeffs, mean=0.0, std=1 / (input_dim * (degree + 1)))
        self.register_buffer("arange", torch.arange(0, degree + 1, 1))

    def forward(self, x):
        x = torch.tanh(x)
        x = x.view((-1, self.inputdim, 1)).expand(-1, -1, self.degree + 1)
        x = x.acos()
        x *= self.arange
        x = x.cos()
        y = torch.einsum("bid,iod->bo", x, self.cheby_coeffs)
        y = y.view(-1, self.outdim)
        return y

class MNISTChebyKAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.chebykan1 = ChebyKANLayer(28 * 28, 32, 4)
        self.ln1 = nn.LayerNorm(32)
        self.chebykan2 = ChebyKANLayer(32, 16, 4)
        self.ln2 = nn.LayerNorm(16)
        self.chebykan3 = ChebyKANLayer(16, 10, 4)

    def forward(self, x):
        x = x.view(-1, 28 * 28)
        x = self.ln1(self.chebykan1(x))
        x = self.ln2(self.chebykan2(x))
        return self.chebykan3(x)

model = MNISTChebyKAN()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
images = torch.rand(32, 1, 28, 28)
labels = torch.randint(0, 10, (32,))
'''
CELL = '''
optimizer.zero_grad()
output = model(images)
loss = criterion(output, labels)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
