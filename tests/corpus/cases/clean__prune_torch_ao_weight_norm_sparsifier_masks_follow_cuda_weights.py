"""torch.ao.pruning WeightNormSparsifier prepared on a GPU model: FakeSparsity masks are `ones_like` the cuda weights.

Source: https://github.com/pytorch/pytorch/blob/main/torch/ao/pruning/sparsifier/base_sparsifier.py
`BaseSparsifier._prepare` builds each mask with `config.get("mask", torch.ones_like(getattr(module,
tensor_name)))` and registers `FakeSparsity(mask)` as a parametrization, so the mask buffer is created
where the weight already is; the model moved to cuda:0 before `prepare`, the CPU-side `config` list and
the Python sparsity settings are plain data. Look-alike: a sparsifier attached after `model.to(device)`
(the order that broke before this code), masks on cuda:0; it runs.
Uses the real torch.ao.pruning (part of torch); `step()` (data-dependent block sorting) is not called.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.ao.pruning import WeightNormSparsifier

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(64, 128)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.linear2(self.relu(self.linear1(x)))

device = torch.device("cuda:0")
model = Model().to(device)
sparsifier = WeightNormSparsifier(sparsity_level=0.5, sparse_block_shape=(1, 4), zeros_per_block=4)
sparse_config = [{"tensor_fqn": "linear1.weight"}, {"tensor_fqn": "linear2.weight"}]
x = torch.randn(32, 64, device=device)
'''
CELL = '''
sparsifier.prepare(model, sparse_config)
with torch.no_grad():
    out = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
