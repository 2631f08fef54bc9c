"""TorchQuantum NoiseDevice(device='cuda'): the density matrix is created on the CPU while gates with trainable parameters are on cuda.

Source: https://github.com/mit-han-lab/torchquantum/pull/321
"NoiseDevice buffers remained on CPU even when device='cuda' was specified": `NoiseDevice.__init__`
builds `_density` with `torch.zeros(...)`, sets the |0><0| entry and reshapes it, but never moves it
to `self.device`, unlike `QuantumDevice`, whose state ends in `.to(self.device)`. GPU noise
simulations then fail as soon as a cuda gate meets the CPU density. The PR adds
`.to(self.device)` to the density initialisation (fixes issue #210).
Stand-in: NoiseDevice with a real density matrix, an RY gate module with a trainable angle applied
as U rho U^T.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class NoiseDevice(nn.Module):
    def __init__(self, n_wires, bsz=1, device="cpu"):
        super().__init__()
        self.n_wires = n_wires
        self.bsz = bsz
        self.device = device
        dim = 2 ** n_wires
        _density = torch.cat([torch.ones(1), torch.zeros(dim * dim - 1)])
        _density = torch.reshape(_density, [dim, dim])
        self.register_buffer("density", _density.unsqueeze(0).repeat(bsz, 1, 1))

class RY(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.Parameter(torch.full((1,), 0.3))

    def forward(self, qdev):
        c, s = torch.cos(self.params / 2), torch.sin(self.params / 2)
        u = torch.stack([torch.cat([c, -s]), torch.cat([s, c])])
        qdev.density = u @ qdev.density @ u.T

class QModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.ry = RY()

    def forward(self, qdev):
        self.ry(qdev)
        return qdev.density.diagonal(dim1=-2, dim2=-1)

model = QModel().to("cuda:0")
qdev = NoiseDevice(n_wires=1, bsz=2, device="cuda:0")
'''
CELL = '''
probs = model(qdev)
print(probs.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["qdev"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("_density = torch.reshape(_density, [dim, dim])",
                  "_density = torch.reshape(_density, [dim, dim]).to(self.device)")
CLEAN = False
