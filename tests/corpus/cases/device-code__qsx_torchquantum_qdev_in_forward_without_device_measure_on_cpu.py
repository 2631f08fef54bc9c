"""TorchQuantum TQNet on the GPU without an encoder: the QuantumDevice made in forward has no device, measurement comes back on the CPU.

Source: https://github.com/mit-han-lab/torchquantum/issues/68
The user's `TQNet(tq.QuantumModule)` takes a list of quantum layers and an optional encoder; with
`tq.AmplitudeEncoder()` the states are set from the (cuda) input, but without it the device's
states keep their CPU default and `tq.MeasureAll(tq.PauliZ)` returns a CPU tensor, which then
meets the model's cuda layers. The QuantumDevice is built in `forward` from `n_wires` and the
batch size only; TorchQuantum's examples pass `device=x.device` to `tq.QuantumDevice`.
Stand-in: QuantumDevice (state vector as a real buffer), fixed Hadamard/CNOT layers, MeasureAll
PauliZ; a classical head after the measurement.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class QuantumDevice(nn.Module):
    def __init__(self, n_wires, bsz=1, device="cpu"):
        super().__init__()
        self.n_wires = n_wires
        one = torch.ones(bsz, 1, device=device)
        rest = torch.zeros(bsz, 2 ** n_wires - 1, device=device)
        self.register_buffer("states", torch.cat([one, rest], dim=1))

class Hadamard(nn.Module):
    def forward(self, qdev, wire):
        h = torch.tensor([[1.0, 1.0], [1.0, -1.0]], device=qdev.states.device) / 2 ** 0.5
        n = qdev.n_wires
        s = qdev.states.reshape(-1, 2 ** wire, 2, 2 ** (n - wire - 1))
        qdev.states = torch.einsum("ij,bajc->baic", h, s).reshape(-1, 2 ** n)

class MeasureAll(nn.Module):
    def forward(self, qdev):
        probs = qdev.states ** 2
        n = qdev.n_wires
        outs = []
        for w in range(n):
            p = probs.reshape(-1, 2 ** w, 2, 2 ** (n - w - 1)).sum(dim=(1, 3))
            outs.append(p[:, 0] - p[:, 1])
        return torch.stack(outs, dim=1)

class TQNet(nn.Module):
    def __init__(self, layers, encoder=None, use_softmax=False):
        super().__init__()
        self.encoder = encoder
        self.use_softmax = use_softmax
        self.layers = nn.ModuleList(layers)
        self.n_wires = 4
        self.measure = MeasureAll()
        self.fc = nn.Linear(self.n_wires, 10)

    def forward(self, x):
        bsz = x.shape[0]
        qdev = QuantumDevice(n_wires=self.n_wires, bsz=bsz)
        if self.encoder is not None:
            self.encoder(qdev, x)
        for wire, layer in enumerate(self.layers):
            layer(qdev, wire)
        x = self.measure(qdev)
        x = self.fc(x)
        return F.log_softmax(x, dim=1) if self.use_softmax else x

device = torch.device("cuda:0")
model = TQNet(layers=[Hadamard() for _ in range(4)], use_softmax=True).to(device)
data = torch.randn(8, 1, 28, 28, device=device)
'''
CELL = '''
output = model(data)
print(output.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("qdev = QuantumDevice(n_wires=self.n_wires, bsz=bsz)",
                  "qdev = QuantumDevice(n_wires=self.n_wires, bsz=bsz, device=x.device)")
CLEAN = False
