"""SecretFlow FLModel with `strategy='fed_avg_g'`: the aggregated gradients come back as float64 and are assigned to float32 parameters.

Source: https://github.com/secretflow/secretflow/issues/1056
Training a torch FLModel with the gradient-averaging strategy failed with "RuntimeError: assigned grad
has data of a different type". The maintainers located it: after the aggregator averages the
clients' gradients, `set_gradients` receives arrays that were turned into float64 somewhere on the
way, while the model is float32. Stand-in: the aggregator averages NumPy gradients with
`np.average(..., weights=...)` (which returns float64 for float32 inputs weighted by Python
floats), the worker's `set_gradients` wraps them with `torch.from_numpy`; a small MLP on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TorchModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

    def get_gradients(self):
        return [p.grad.numpy().copy() for p in self.parameters()]

    def set_gradients(self, gradients):
        for g, p in zip(gradients, self.parameters()):
            p.grad = torch.from_numpy(np.array(g))

def aggregate_average(client_grads, weights):
    return [np.average(np.stack(layer), axis=0, weights=weights) for layer in zip(*client_grads)]

model = TorchModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
client_grads = []
for _ in range(2):                                   # alice and bob compute local gradients
    model.zero_grad()
    x, y = torch.randn(8, 20), torch.randint(0, 2, (8,))
    nn.functional.cross_entropy(model(x), y).backward()
    client_grads.append(model.get_gradients())
gradients = aggregate_average(client_grads, weights=[0.5, 0.5])
'''
CELL = '''
model.set_gradients(gradients)
optimizer.step()
'''
EXPECT_ERROR = ("assigned grad has data of a different type", "to a tensor with grad_dtype")
CULPRITS = ["gradients"]
FIX = "namespace"
REFERENCE_FIX = '''
gradients = [g.astype(np.float32) for g in gradients]
'''
REFERENCE_EDIT = None
CLEAN = False
