"""Look-alike: pytorch-fm keeps its per-field offsets as a numpy array and adds them with `x.new_tensor(...)`, which lands on the input's device.

Source: https://github.com/rixwew/pytorch-fm/blob/master/torchfm/layer.py
`FeaturesEmbedding` / `FeaturesLinear` store `self.offsets = np.array((0, *np.cumsum(field_dims)[:-1]))`
(not a buffer, never moved by `model.to(device)`), and forward does
`x = x + x.new_tensor(self.offsets).unsqueeze(0)` before the shared embedding lookup. `new_tensor` copies
the offsets onto the device (and dtype) of `x`, so the model moved to the device with fields on the device runs (the "GPU" is meta here).
Stand-in: the library's `FactorizationMachineModel` (linear + FM interaction) on 4 fields.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class FeaturesLinear(torch.nn.Module):
    def __init__(self, field_dims, output_dim=1):
        super().__init__()
        self.fc = torch.nn.Embedding(sum(field_dims), output_dim)
        self.bias = torch.nn.Parameter(torch.zeros((output_dim,)))
        self.offsets = np.array((0, *np.cumsum(field_dims)[:-1]), dtype=np.int64)

    def forward(self, x):
        x = x + x.new_tensor(self.offsets).unsqueeze(0)
        return torch.sum(self.fc(x), dim=1) + self.bias

class FeaturesEmbedding(torch.nn.Module):
    def __init__(self, field_dims, embed_dim):
        super().__init__()
        self.embedding = torch.nn.Embedding(sum(field_dims), embed_dim)
        self.offsets = np.array((0, *np.cumsum(field_dims)[:-1]), dtype=np.int64)
        torch.nn.init.xavier_uniform_(self.embedding.weight.data)

    def forward(self, x):
        x = x + x.new_tensor(self.offsets).unsqueeze(0)
        return self.embedding(x)

class FactorizationMachine(torch.nn.Module):
    def forward(self, x):
        square_of_sum = torch.sum(x, dim=1) ** 2
        sum_of_square = torch.sum(x ** 2, dim=1)
        return 0.5 * torch.sum(square_of_sum - sum_of_square, dim=1, keepdim=True)

class FactorizationMachineModel(torch.nn.Module):
    def __init__(self, field_dims, embed_dim):
        super().__init__()
        self.embedding = FeaturesEmbedding(field_dims, embed_dim)
        self.linear = FeaturesLinear(field_dims)
        self.fm = FactorizationMachine()

    def forward(self, x):
        x = self.linear(x) + self.fm(self.embedding(x))
        return torch.sigmoid(x.squeeze(1))

field_dims = [10, 20, 5, 7]
device = torch.device("meta")
model = FactorizationMachineModel(field_dims, embed_dim=16).to(device)
fields = torch.stack([torch.randint(0, d, (32,)) for d in field_dims], dim=1).to(device)
target = torch.randint(0, 2, (32,)).to(device)
criterion = torch.nn.BCELoss()
'''
CELL = '''
y = model(fields)
loss = criterion(y, target.float())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
