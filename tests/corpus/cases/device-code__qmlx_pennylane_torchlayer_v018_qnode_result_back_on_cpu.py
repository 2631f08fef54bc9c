"""PennyLane 0.18 `qml.qnn.TorchLayer` inside a cuda `nn.Sequential`: the QNode's result comes back on the CPU and meets `clayer2`.

Source: https://github.com/PennyLaneAI/pennylane/issues/1688
The user's model is the TorchLayer docs example (`clayer1 = Linear(2, 2)`, `qlayer =
qml.qnn.TorchLayer(qnode, {"weights": (3, n_qubits, 3)})` over AngleEmbedding +
StronglyEntanglingLayers, `clayer2`, softmax) moved to cuda; with pennylane 0.18 training fails
in `clayer2`: "Expected all tensors ... cuda:0 and cpu! (... argument mat1 in method
wrapper_addmm)", `input.device=cpu, weight.device=cuda:0`. The device evaluated the circuit and
rebuilt the result tensor without the parameters' device (it worked in 0.17).
Stand-in: TorchLayer whose `_evaluate_qnode` stacks the per-wire expectation values into a new
tensor made without a device, as the 0.18 device did.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

n_qubits = 2

def qnode(inputs, weights):
    angles = inputs + weights.sum(dim=(0, 2))          # AngleEmbedding + StronglyEntanglingLayers
    return torch.cos(angles)                           # expval(PauliZ(0)), expval(PauliZ(1))

class TorchLayer(nn.Module):
    def __init__(self, qnode, weight_shapes):
        super().__init__()
        self.qnode = qnode
        self.weights = nn.Parameter(torch.rand(weight_shapes["weights"]))

    def _evaluate_qnode(self, x):
        res = self.qnode(x, self.weights)
        return torch.zeros(res.shape, dtype=x.dtype) + 0.0   # device result rebuilt on the host

    def forward(self, inputs):
        return self._evaluate_qnode(inputs)

weight_shapes = {"weights": (3, n_qubits, 3)}
qlayer = TorchLayer(qnode, weight_shapes)
clayer1 = torch.nn.Linear(2, 2)
clayer2 = torch.nn.Linear(2, 2)
softmax = torch.nn.Softmax(dim=1)
device = torch.device("cuda:0")
model = torch.nn.Sequential(clayer1, qlayer, clayer2, softmax).to(device)
xs = torch.rand(5, 2, device=device)
'''
CELL = '''
pred = model(xs)
print(pred.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.zeros(res.shape, dtype=x.dtype) + 0.0",
                  "return torch.zeros(res.shape, dtype=x.dtype, device=x.device) + 0.0")
CLEAN = False
