"""PennyLane torch-interface QNode on the GPU: the backward pass multiplies the cuda `dy` by a Jacobian the device computed on the CPU.

Source: https://github.com/PennyLaneAI/pennylane/issues/1290
The user's `Net` (quantum transfer learning style: `q_params = nn.Parameter(q_delta *
torch.randn(q_depth * n_qubits))`, `quantum_net(q_input_features, q_weights_flat)` with RY layers and
PauliZ expectations) trains on the GPU; `loss.backward()` fails in the torch interface's
`backward`: `vjp = dy.view(1, -1) @ ctx.jacobian.apply(ctx, *ctx.saved_tensors)` ("Tensor for
argument #3 'mat2' is on CPU, but expected it to be on GPU"). The Jacobian comes back on the CPU;
the user's patch (and PR #1426) moves it to `dy`'s device before the product.
Stand-in: a torch.autograd.Function standing in for the QNode (forward on the input's device,
backward building the parameter-shift Jacobian on the CPU); the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

n_qubits = 4
q_depth = 2
q_delta = 0.01
device = torch.device("meta")   # cuda in the report

class _TorchQNode(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q_input_features, q_weights_flat):
        ctx.save_for_backward(q_input_features, q_weights_flat)
        q_weights = q_weights_flat.reshape(q_depth, n_qubits)
        return torch.cos(q_input_features + q_weights.sum(0))     # expval(PauliZ(i))

    @staticmethod
    def backward(ctx, dy):
        q_input_features, q_weights_flat = ctx.saved_tensors
        jacobian = torch.ones(n_qubits, q_weights_flat.shape[0] + n_qubits, dtype=dy.dtype)   # device Jacobian, CPU
        vjp = (dy.reshape(-1, 1) * jacobian).sum(0)
        return vjp[:n_qubits], vjp[n_qubits:]

def quantum_net(q_input_features, q_weights_flat):
    return _TorchQNode.apply(q_input_features, q_weights_flat)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_net = nn.Linear(16, n_qubits)
        self.q_params = nn.Parameter(q_delta * torch.randn(q_depth * n_qubits))
        self.post_net = nn.Linear(n_qubits, 2)

    def forward(self, input_features):
        q_in = torch.tanh(self.pre_net(input_features)) * 3.14159 / 2.0
        q_out = torch.stack([quantum_net(elem, self.q_params) for elem in q_in])
        return self.post_net(q_out)

model = Net().to(device)
inputs = torch.randn(3, 16, device=device)
labels = torch.randint(0, 2, (3,), device=device)
criterion = nn.CrossEntropyLoss()
'''
CELL = '''
outputs = model(inputs)
loss = criterion(outputs, labels)
loss.backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("jacobian = torch.ones(n_qubits, q_weights_flat.shape[0] + n_qubits, dtype=dy.dtype)",
                  "jacobian = torch.ones(n_qubits, q_weights_flat.shape[0] + n_qubits, dtype=dy.dtype, device=dy.device)")
CLEAN = False
