"""Look-alike: PennyLane quantum transfer learning's DressedQuantumNet, float64 QNode outputs cast with `.float()` before the float32 post_net.

Source: https://pennylane.ai/qml/demos/tutorial_quantum_transfer_learning
The demo's `DressedQuantumNet.forward` reduces features with `pre_net`, runs the torch QNode
`quantum_net(elem, self.q_params)` per sample (the QNode returns float64 expectation values),
casts each with `.float().unsqueeze(0)`, concatenates into `q_out = torch.Tensor(0, n_qubits)`
moved to the device, and applies `post_net`. float32 network, float64 circuit outputs on purpose:
it runs.
Stand-in: quantum_net computing PauliZ expectations of RY layers in float64; CPU (dtype mixing
only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

n_qubits, q_depth, q_delta = 4, 3, 0.01
device = torch.device("cpu")

def quantum_net(q_input_features, q_weights_flat):
    q_weights = q_weights_flat.reshape(q_depth, n_qubits).double()
    angles = q_input_features.double() + q_weights.sum(0)
    return torch.cos(angles)          # [qml.expval(qml.PauliZ(position)) ...]: float64

class DressedQuantumNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_net = nn.Linear(512, n_qubits)
        self.q_params = nn.Parameter(q_delta * torch.randn(q_depth * n_qubits))
        self.post_net = nn.Linear(n_qubits, 2)

    def forward(self, input_features):
        pre_out = self.pre_net(input_features)
        q_in = torch.tanh(pre_out) * torch.pi / 2.0
        q_out = torch.Tensor(0, n_qubits)
        q_out = q_out.to(device)
        for elem in q_in:
            q_out_elem = quantum_net(elem, self.q_params).float().unsqueeze(0)
            q_out = torch.cat((q_out, q_out_elem))
        return self.post_net(q_out)

model_hybrid = DressedQuantumNet().to(device)
inputs = torch.randn(4, 512)
'''
CELL = '''
outputs = model_hybrid(inputs)
print(outputs.dtype, outputs.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
