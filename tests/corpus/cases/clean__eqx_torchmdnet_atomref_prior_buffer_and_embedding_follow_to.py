"""Look-alike: TorchMD-Net's `Atomref` prior keeps the reference energies in a buffer and an `nn.Embedding`, both moved by `.to()`.

Source: https://github.com/torchmd/torchmd-net/blob/main/torchmdnet/priors/atomref.py
`Atomref.__init__` stores `initial_atomref` with `register_buffer` and copies it into
`self.atomref = nn.Embedding(len(atomref), 1)`; `post_reduce`/`pre_reduce` add `self.atomref(z)` to the
per-atom outputs. Built on the CPU and moved with the model, so the reference table follows the batch to
cuda. Stand-in: the prior and a small representation model moved to the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Atomref(nn.Module):
    def __init__(self, atomref):
        super().__init__()
        self.register_buffer("initial_atomref", atomref)
        self.atomref = nn.Embedding(len(atomref), 1)
        self.atomref.weight.data.copy_(atomref.view(-1, 1))
    def pre_reduce(self, x, z):
        return x + self.atomref(z)

class TorchMD_Net(nn.Module):
    def __init__(self, prior_model, max_z=10, hidden=16):
        super().__init__()
        self.embedding = nn.Embedding(max_z, hidden)
        self.out = nn.Linear(hidden, 1)
        self.prior_model = prior_model
    def forward(self, z, pos):
        x = self.out(self.embedding(z) + 0.0 * pos.sum(-1, keepdim=True))
        return self.prior_model.pre_reduce(x, z).sum()

atomref = torch.zeros(10)
atomref[1], atomref[6] = -0.5, -37.8
model = TorchMD_Net(Atomref(atomref)).to("cuda:0")
z = torch.tensor([6, 1, 1, 1, 1]).to("cuda:0")
pos = torch.randn(5, 3).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    energy = model(z, pos)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
