"""pyqtorch QuantumCircuit moved to the GPU: `init_state` returns a CPU state because `_device` looks only at parameters.

Source: https://github.com/pasqal-io/pyqtorch/pull/48
"the `QuantumCircuit._device` method was always returning "cpu" because we don't have parameters in
the circuit anymore": gates keep their matrices as registered buffers, so after `circ.to(device)`
the gates are on the GPU but `circ.init_state(batch_size)` still builds the zero state on the CPU,
and applying the first gate mixes devices. The PR makes `_device` look at the registered buffers.
Stand-in: QuantumCircuit of fixed-matrix gates (Hadamard, X) with buffers, `_device` from
`self.parameters()` defaulting to "cpu"; real amplitudes.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch.nn import Module, ModuleList

class Primitive(Module):
    def __init__(self, matrix, target):
        super().__init__()
        self.target = target
        self.register_buffer("pauli", matrix)

    def forward(self, state):
        n = state.dim() - 1
        state = state.movedim(self.target, 0)
        shape = state.shape
        state = (self.pauli @ state.reshape(2, -1)).reshape(shape)
        return state.movedim(0, self.target)

class QuantumCircuit(Module):
    def __init__(self, n_qubits, operations):
        super().__init__()
        self.n_qubits = n_qubits
        self.operations = ModuleList(operations)

    @property
    def _device(self):
        try:
            return next(self.parameters()).device
        except StopIteration:
            return torch.device("cpu")

    def init_state(self, batch_size=1):
        state = torch.zeros(2 ** self.n_qubits, batch_size, device=self._device)
        one = torch.ones(1, batch_size, device=self._device)
        state = torch.cat([one, state[1:]])
        return state.reshape([2] * self.n_qubits + [batch_size])

    def forward(self, state):
        for op in self.operations:
            state = op(state)
        return state

H = torch.tensor([[1.0, 1.0], [1.0, -1.0]]) / 2 ** 0.5
X = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
circ = QuantumCircuit(2, [Primitive(H, 0), Primitive(X, 1)]).to("cuda:0")
'''
CELL = '''
state = circ.init_state(batch_size=4)
out = circ(state)
print(out.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["circ"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return next(self.parameters()).device", "return next(self.buffers()).device")
CLEAN = False
