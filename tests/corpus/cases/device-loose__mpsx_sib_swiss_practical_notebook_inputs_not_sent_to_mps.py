"""Course notebook on Apple Silicon: the model is sent to mps, the example inputs are not.

Source: https://github.com/sib-swiss/pytorch-practical-training/issues/2
"On Apple Silicon (MPS) device I am getting `RuntimeError: Placeholder storage has not been allocated
on MPS device!` in multiple places in the first notebook. This can be fixed by sending the model
inputs to the device." The notebook picks `device = "mps"` when available and does
`model = NeuralNetwork().to(device)`, then calls the model on a freshly made CPU tensor; the
maintainers fixed the notebook by moving the inputs. Stand-in: the notebook's small fully connected
network and random image batch; cuda:0 stands in for mps.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")     # "mps" if torch.backends.mps.is_available() else "cpu"

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 128), nn.ReLU(),
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, 10),
        )

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))

model = NeuralNetwork().to(device)
X = torch.rand(3, 28, 28)
'''
CELL = '''
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
