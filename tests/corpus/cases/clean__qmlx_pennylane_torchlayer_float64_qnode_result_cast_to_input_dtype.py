"""Look-alike: PennyLane `qml.qnn.TorchLayer` evaluates a float64 QNode on float32 inputs and casts the result back to the input dtype.

Source: https://github.com/PennyLaneAI/pennylane/blob/master/pennylane/qnn/torch.py
`TorchLayer._evaluate_qnode` calls the QNode with the layer's weights (QNode results are float64:
PennyLane promotes to double precision) and returns `torch.hstack(res).type(x.dtype)`, so the
float32 `nn.Linear` after it gets float32 activations. The docs' hybrid model `Sequential(clayer1,
qlayer, clayer2, softmax)` on make_moons data mixes float32 layers with a float64 circuit on purpose.
Stand-in: the QNode computes cos(inputs + weights) in float64; CPU (dtype only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

n_qubits = 2

def qnode(inputs, weights):
    angles = inputs.double() + weights.double().sum(dim=(0, 2))   # AngleEmbedding + StronglyEntanglingLayers
    return [torch.cos(angles[..., i]) for i in range(n_qubits)]  # expval(PauliZ(i)), float64

class TorchLayer(nn.Module):
    def __init__(self, qnode, weight_shapes):
        super().__init__()
        self.qnode = qnode
        self.weights = nn.Parameter(torch.rand(weight_shapes["weights"]))

    def _evaluate_qnode(self, x):
        res = self.qnode(x, self.weights)
        res = [r.reshape(x.shape[0], 1) for r in res]
        return torch.hstack(res).type(x.dtype)

    def forward(self, inputs):
        return self._evaluate_qnode(inputs)

weight_shapes = {"weights": (3, n_qubits, 3)}
qlayer = TorchLayer(qnode, weight_shapes)
clayer1 = nn.Linear(2, 2)
clayer2 = nn.Linear(2, 2)
softmax = nn.Softmax(dim=1)
model = nn.Sequential(clayer1, qlayer, clayer2, softmax)
X = torch.rand(5, 2).float()
Y = torch.rand(5, 2).float()
loss = nn.L1Loss()
'''
CELL = '''
loss_evaluated = loss(model(X), Y)
loss_evaluated.backward()
print(loss_evaluated.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
