"""PennyLane `qml.qnn.TorchLayer` never moved to the GPU, fed `x_normalized` on cuda: the layer's weights stay on the CPU.

Source: https://github.com/PennyLaneAI/pennylane/issues/709
The reproducer in the thread wraps a torch QNode (`AmplitudeEmbedding(inputs, pad=0.)` +
`BasicEntanglerLayers(weights)`) in `qlayer = qml.qnn.TorchLayer(circuit, weight_shapes)`, moves
only the data (`x_normalized = x.div(norm).to(torch.device('cuda'))`) and calls
`torch.sum(qlayer(x_normalized))`: the QNode mixes the cuda features with the layer's CPU weight
Parameter. PR #899 made TorchLayer convert the QNode parameters to the input's device; on the user
side the layer has to follow the data (`qlayer.to(device)`).
Stand-in: TorchLayer as an nn.Module holding `weights` as a Parameter; the QNode computes PauliZ
expectations from the padded, normalised amplitude state scaled by cos(weights).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

n_qubits = 4

def circuit(inputs, weights):
    dim = 2 ** n_qubits
    pad = torch.zeros(inputs.shape[0], dim - inputs.shape[1], device=inputs.device)
    state = torch.cat([inputs, pad], dim=1)                 # AmplitudeEmbedding(inputs, pad=0.)
    probs = state ** 2
    signs = torch.ones(dim, n_qubits, device=inputs.device)  # PauliZ eigenvalue table
    return (probs @ signs) * torch.cos(weights).prod(0)     # BasicEntanglerLayers + expval(PauliZ)

class TorchLayer(nn.Module):
    def __init__(self, qnode, weight_shapes):
        super().__init__()
        self.qnode = qnode
        self.weights = nn.Parameter(torch.rand(weight_shapes["weights"]) * 2 * 3.14159)

    def forward(self, inputs):
        return self.qnode(inputs, self.weights)

n_layers = 1
weight_shapes = {"weights": (n_layers, n_qubits)}
qlayer = TorchLayer(circuit, weight_shapes)

x = torch.rand((5, 10))
norm = x.norm(p=2, dim=1, keepdim=True)
x_normalized = x.div(norm).to(torch.device("cuda:0"))
'''
CELL = '''
loss = torch.sum(qlayer(x_normalized)).squeeze()
print(loss)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["qlayer"]
FIX = "namespace"
REFERENCE_FIX = '''
qlayer.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
