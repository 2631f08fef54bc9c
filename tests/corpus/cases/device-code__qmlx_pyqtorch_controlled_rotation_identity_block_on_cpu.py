"""pyqtorch circuit with `CRY` gates on the GPU: the controlled-rotation matrix is assembled around a CPU identity block.

Source: https://github.com/pasqal-io/pyqtorch/pull/31
Running a pyqtorch circuit containing `CRY` gates with the state and parameters on cuda failed in
`torch.einsum` with "Expected all tensors ... cpu and cuda:0! (... argument mat2 in method
wrapper_bmm)": the controlled Pauli rotation builds its batched 4x4 matrix from an identity made
without a device and the (cuda) rotation block. The PR creates it on the rotation's device.
Stand-in: batched RY matrix, `_controlled` assembling the block matrix, and a CRY module applying
it to a two-qubit batched state with einsum.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def ry_matrix(theta):
    c, s = torch.cos(theta / 2), torch.sin(theta / 2)
    return torch.stack([torch.stack([c, -s]), torch.stack([s, c])]).to(torch.cdouble)   # (2, 2, batch)

def _controlled(unitary, batch_size):
    ident = torch.eye(2, dtype=torch.cdouble).unsqueeze(2).repeat(1, 1, batch_size)
    zeros = torch.zeros_like(unitary)
    top = torch.cat([ident, zeros], dim=1)
    bottom = torch.cat([zeros, unitary], dim=1)
    return torch.cat([top, bottom], dim=0)

class CRY(nn.Module):
    def __init__(self, qubits, n_qubits):
        super().__init__()
        self.qubits = qubits
        self.n_qubits = n_qubits

    def forward(self, state, thetas):
        batch_size = thetas.shape[0]
        mat = _controlled(ry_matrix(thetas), batch_size)
        state = state.reshape(4, batch_size)
        return torch.einsum("ijb,jb->ib", mat, state)

device = "cuda:0"
gate = CRY([0, 1], 2).to(device)
batch_size = 5
state = torch.ones(4, batch_size, dtype=torch.cdouble).to(device) / 2
thetas = torch.rand(batch_size).to(device)
'''
CELL = '''
out = gate(state, thetas)
print(out.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ident"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ident = torch.eye(2, dtype=torch.cdouble).unsqueeze(2).repeat(1, 1, batch_size)",
                  "ident = torch.eye(2, dtype=torch.cdouble, device=unitary.device).unsqueeze(2).repeat(1, 1, batch_size)")
CLEAN = False
