"""PennyLane `default.qubit.torch` with cuda parameters: the parametric gate matrix concatenates untyped constants that land on the CPU.

Source: https://github.com/PennyLaneAI/pennylane/pull/1921
After `default.qubit` stopped defining torch-specific gate matrices, a torch QNode
`circuit(x, y)` applying `qml.RX(x, wires=0)` and `qml.RZ(y, wires=0)` with `x = torch.tensor(0.3,
device='cuda')`, `y = torch.tensor(0., device='cuda')` failed with "Expected all tensors ... cpu and
cuda:0! (... argument tensors in method wrapper___cat)": the generic matrix definitions include
constants (0, 1) with no explicit type, which torch puts on the CPU. The PR builds those constants
like the parameter.
Stand-in: RX/RZ matrix functions (RZ concatenates the phases with constant zero entries), a
one-qubit state-vector circuit on cuda; plain functions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def rx_matrix(theta):
    c = torch.cos(theta / 2).reshape(1).to(torch.complex64)
    js = (-1j * torch.sin(theta / 2)).reshape(1).to(torch.complex64)
    return torch.cat([c, js, js, c]).reshape(2, 2)

def rz_matrix(theta):
    p = torch.exp(-0.5j * theta.to(torch.complex64)).reshape(1)
    zeros = torch.zeros(2, dtype=torch.complex64)
    return torch.cat([p, zeros, torch.conj(p)]).reshape(2, 2)

torch_device = "cuda:0"

def circuit(x, y):
    state = torch.tensor([1.0, 0.0], dtype=torch.complex64).to(torch_device)
    state = rx_matrix(x) @ state          # qml.RX(x, wires=0)
    state = rz_matrix(y) @ state          # qml.RZ(y, wires=0)
    z = torch.tensor([1.0, -1.0], device=torch_device)
    return torch.sum(z * torch.abs(state) ** 2)   # qml.expval(qml.PauliZ(0))

x = torch.tensor(0.3, device="cuda:0")
y = torch.tensor(0.0, device="cuda:0")
'''
CELL = '''
print(circuit(x, y))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["zeros"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("zeros = torch.zeros(2, dtype=torch.complex64)",
                  "zeros = torch.zeros(2, dtype=torch.complex64, device=theta.device)")
CLEAN = False
