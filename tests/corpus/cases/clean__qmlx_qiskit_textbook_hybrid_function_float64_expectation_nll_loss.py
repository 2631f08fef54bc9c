"""Look-alike: Qiskit textbook hybrid network, the quantum `HybridFunction` returns a float64 `torch.tensor([expectation_z])` that flows into `nll_loss`.

Source: https://qiskit.org/textbook/ch-machine-learning/machine-learning-qiskit-pytorch.html
The chapter's `HybridFunction.forward` runs the circuit and returns `result = torch.tensor([expectation_z])`
(NumPy float64 -> torch.float64, on the CPU); `Net.forward` ends with `x = self.hybrid(x)` and
`torch.cat((x, 1 - x), -1)`, and training uses `F.nll_loss(output, target)` with the long MNIST
labels. float32 conv/linear layers and a float64 head by design; everything is on the CPU; it runs.
Stand-in: the circuit's expectation is a closed-form function of the angle; CPU, dtype mixing only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

class QuantumCircuit:
    def run(self, thetas):
        return np.array([np.cos(t) for t in thetas])      # expectation of Z, float64

class HybridFunction(Function):
    @staticmethod
    def forward(ctx, input, quantum_circuit, shift):
        ctx.shift = shift
        ctx.quantum_circuit = quantum_circuit
        expectation_z = ctx.quantum_circuit.run(input[0].tolist())
        result = torch.tensor([expectation_z])
        ctx.save_for_backward(input, result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        input, expectation_z = ctx.saved_tensors
        gradients = -torch.sin(input.double())
        return (gradients * grad_output).to(input.dtype), None, None

class Hybrid(nn.Module):
    def __init__(self, shift):
        super().__init__()
        self.quantum_circuit = QuantumCircuit()
        self.shift = shift

    def forward(self, input):
        return HybridFunction.apply(input, self.quantum_circuit, self.shift)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, kernel_size=5)
        self.fc1 = nn.Linear(6 * 24 * 24, 1)
        self.hybrid = Hybrid(np.pi / 2)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = x.view(1, -1)
        x = self.fc1(x)
        x = self.hybrid(x)
        return torch.cat((x, 1 - x), -1)

model = Net()
data = torch.rand(1, 1, 28, 28)
target = torch.tensor([1])
'''
CELL = '''
output = model(data)
loss = F.nll_loss(output, target)
loss.backward()
print(output.dtype, loss.item())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
