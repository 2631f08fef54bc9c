"""PennyLane `qml.ctrl` on default.qubit.torch(torch_device='cuda'): the controlled-gate matrix pads a cuda RY with a CPU identity.

Source: https://github.com/PennyLaneAI/pennylane/issues/4003
The user's torch QNode on `qml.device("default.qubit.torch", wires=2, torch_device='cuda')` applies
`qml.ctrl(op=qml.RY(weight_1, wires=1), control=0)` and `qml.RX(weight_2, wires=0)` with both
weights created with `device='cuda'`; it fails with "Expected all tensors to be on the same
device" and runs when the controlled gate is removed. The controlled operation's matrix is built
from an identity block made without the target matrix's device.
Stand-in: Controlled.matrix (block-diagonal identity + target matrix), RY/RX with real magnitudes,
default.qubit.torch state on the torch device; the circuit is a plain function.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def RY(theta):
    c, s = torch.cos(theta / 2), torch.sin(theta / 2)
    return torch.stack([torch.stack([c, -s]), torch.stack([s, c])])

def RX(theta):
    c, s = torch.cos(theta / 2), torch.sin(theta / 2)   # |-i sin| kept as magnitude
    return torch.stack([torch.stack([c, s]), torch.stack([s, c])])

class Controlled:
    def __init__(self, base_matrix, n_control=1):
        self.base_matrix = base_matrix
        self.n_control = n_control

    def matrix(self):
        dim = self.base_matrix.shape[0]
        identity = torch.eye(dim * (2 ** self.n_control - 1), dtype=self.base_matrix.dtype)
        zeros = torch.zeros(identity.shape[0], dim, dtype=self.base_matrix.dtype, device=self.base_matrix.device)
        top = torch.cat([identity, zeros], dim=1)
        bottom = torch.cat([zeros.T, self.base_matrix], dim=1)
        return torch.cat([top, bottom], dim=0)

torch_device = 'cuda:0'

def circuit(weight_1, weight_2):
    state = torch.cat([torch.ones(1, device=torch_device), torch.zeros(3, device=torch_device)])
    cry = Controlled(RY(weight_1)).matrix()          # qml.ctrl(op=qml.RY(weight_1, wires=1), control=0)
    state = cry @ state
    rx = torch.kron(RX(weight_2), torch.eye(2, device=torch_device))   # qml.RX(weight_2, wires=0)
    return rx @ state                                # qml.state()

weights_1 = torch.tensor(0.1, device='cuda:0')
weights_2 = torch.tensor(0.1, device='cuda:0')
'''
CELL = '''
print(circuit(weights_1, weights_2))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["identity"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("identity = torch.eye(dim * (2 ** self.n_control - 1), dtype=self.base_matrix.dtype)",
                  "identity = torch.eye(dim * (2 ** self.n_control - 1), dtype=self.base_matrix.dtype, device=self.base_matrix.device)")
CLEAN = False
