"""TorchQuantum Hamiltonian on the GPU: `pauli_string_to_matrix` builds the Hamiltonian matrix on its default CPU device.

Source: https://github.com/mit-han-lab/torchquantum/pull/292
"`pauli_string_to_matrix` takes a device argument, which defaults to `torch.device('cpu')`. When
trying to use `Hamiltonian` on GPU this invariably leads to device errors, since the result from
`pauli_string_to_matrix` will be on CPU." The PR passes a device from `Hamiltonian` down to
`pauli_string_to_matrix`; until then the matrix has to be moved to the state's device where it is
used. Here the user's energy function takes `hamil.matrix` against the cuda
state vector of a QuantumDevice.
Stand-in: pauli_string_to_matrix over real Pauli matrices (I, X, Z), Hamiltonian with coeffs and
paulis and a `matrix` property, a 2-wire state vector on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

PAULI = {"I": [[1.0, 0.0], [0.0, 1.0]], "X": [[0.0, 1.0], [1.0, 0.0]], "Z": [[1.0, 0.0], [0.0, -1.0]]}

def pauli_string_to_matrix(pauli, device=torch.device("cpu")):
    mat = torch.tensor(PAULI[pauli[0]], device=device)
    for op in pauli[1:]:
        mat = torch.kron(mat, torch.tensor(PAULI[op], device=device))
    return mat

class Hamiltonian:
    def __init__(self, coeffs, paulis):
        self.coeffs = coeffs
        self.paulis = paulis

    @property
    def matrix(self):
        mats = [c * pauli_string_to_matrix(p) for c, p in zip(self.coeffs, self.paulis)]
        return torch.stack(mats).sum(0)

def energy(states, hamil):
    return torch.einsum("bi,ij,bj->b", states, hamil.matrix, states)

hamil = Hamiltonian(coeffs=[0.5, -1.2], paulis=["ZZ", "XI"])
states = torch.randn(4, 4, device="cuda:0")
states = states / states.norm(dim=1, keepdim=True)
'''
CELL = '''
e = energy(states, hamil)
print(e.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["hamil"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('torch.einsum("bi,ij,bj->b", states, hamil.matrix, states)',
                  'torch.einsum("bi,ij,bj->b", states, hamil.matrix.to(states.device), states)')
CLEAN = False
