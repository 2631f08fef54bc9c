"""Look-alike: TorchQuantum QFCModel builds its QuantumDevice inside forward, but on `x.device`, so the cuda model and states agree.

Source: https://github.com/mit-han-lab/torchquantum
The README's QFCModel creates `qdev = tq.QuantumDevice(n_wires=self.n_wires, bsz=bsz,
device=x.device, record_op=True)` on every forward, encodes the input, runs the trainable layer
and measures with `tq.MeasureAll(tq.PauliZ)`. A tensor made in forward beside a GPU model, but
on the input's device: it runs.
Stand-in: QuantumDevice (real state buffer), a trainable RY layer and MeasureAll PauliZ.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class QuantumDevice(nn.Module):
    def __init__(self, n_wires, bsz=1, device="cpu", record_op=False):
        super().__init__()
        self.n_wires = n_wires
        one = torch.ones(bsz, 1, device=device)
        self.register_buffer("states", torch.cat([one, torch.zeros(bsz, 2 ** n_wires - 1, device=device)], dim=1))

class RYLayer(nn.Module):
    def __init__(self, n_wires):
        super().__init__()
        self.params = nn.Parameter(torch.rand(n_wires))

    def forward(self, qdev):
        n = qdev.n_wires
        for w in range(n):
            c, s = torch.cos(self.params[w] / 2), torch.sin(self.params[w] / 2)
            u = torch.stack([torch.stack([c, -s]), torch.stack([s, c])])
            st = qdev.states.reshape(-1, 2 ** w, 2, 2 ** (n - w - 1))
            qdev.states = torch.einsum("ij,bajc->baic", u, st).reshape(-1, 2 ** n)

class MeasureAll(nn.Module):
    def forward(self, qdev):
        probs, n = qdev.states ** 2, qdev.n_wires
        return torch.stack([probs.reshape(-1, 2 ** w, 2, 2 ** (n - w - 1)).sum(dim=(1, 3)) @ torch.tensor([1.0, -1.0], device=probs.device)
                            for w in range(n)], dim=1)

class QFCModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.n_wires = 4
        self.q_layer = RYLayer(self.n_wires)
        self.measure = MeasureAll()

    def forward(self, x):
        bsz = x.shape[0]
        qdev = QuantumDevice(n_wires=self.n_wires, bsz=bsz, device=x.device, record_op=True)
        self.q_layer(qdev)
        x = self.measure(qdev)
        return F.log_softmax(x, dim=1)

device = torch.device("cuda:0")
model = QFCModel().to(device)
inputs = torch.rand(8, 1, 28, 28, device=device)
'''
CELL = '''
outputs = model(inputs)
print(outputs.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
