"""TorchMD-Net training: the dataset's atomref is kept as a plain tensor on the LightningModule and stays on the CPU.

Source: https://github.com/torchmd/torchmd-net/pull/284
"Send atomref to correct device during training": training with a prior (`Atomref`) on the GPU failed
because the per-element reference energies taken from the dataset were stored as a plain tensor
attribute, which `Module.to()` / Lightning's device transfer never moves, and were then combined with
the atomic numbers of the cuda batch. The PR sends the atomref to the batch's device. Stand-in: an
`LNNP`-like module holding `atomref` as a plain attribute, a representation model and the step that
subtracts the reference energy from the targets.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class TorchMD_Net(nn.Module):
    def __init__(self, max_z=10, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(max_z, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, z, pos):
        h = self.embedding(z) + 0.0 * pos.sum(-1, keepdim=True)
        return self.out(h).sum(0)

class LNNP(nn.Module):
    def __init__(self, atomref, max_z=10):
        super().__init__()
        self.model = TorchMD_Net(max_z)
        self.atomref = atomref                     # dataset.get_atomref(): plain tensor attribute
        self.max_z = max_z

    def step(self, batch):
        pred = self.model(batch["z"], batch["pos"])
        onehot = nn.functional.one_hot(batch["z"], self.max_z).to(pred.dtype)
        y = batch["y"] - (onehot @ self.atomref).sum()
        return ((pred - y) ** 2).mean()

atomref = torch.zeros(10)
atomref[1], atomref[6], atomref[8] = -0.5, -37.8, -75.0
lnnp = LNNP(atomref).to("cuda:0")
batch = {"z": torch.tensor([6, 1, 1, 1, 1]).to("cuda:0"),
         "pos": torch.randn(5, 3).to("cuda:0"),
         "y": torch.tensor([-40.4]).to("cuda:0")}
'''
CELL = '''
with torch.no_grad():
    loss = lnnp.step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lnnp.atomref"]
FIX = "namespace"
REFERENCE_FIX = '''
lnnp.atomref = lnnp.atomref.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
