"""The quickstart's last cell predicts one test image that was never moved to the GPU.

Source: https://github.com/pytorch/tutorials/pull/1657
"The last part of the quickstart tutorial would not run by default and had the error 'Expected
all tensors to be on the same device, but found at least two devices, cuda:0 and cpu'": the model
was trained on `device`, but `x, y = test_data[0][0], test_data[0][1]` is a CPU sample passed
straight to `model(x)`; the fix moves x to the device. Stand-in: random FashionMNIST-shaped data.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from torch.utils.data import TensorDataset

device = "cuda:0"

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 64), nn.ReLU(),
            nn.Linear(64, 64), nn.ReLU(),
            nn.Linear(64, 10))

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)

model = NeuralNetwork().to(device)
test_data = TensorDataset(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,)))

model.eval()
x, y = test_data[0][0], test_data[0][1]
'''
CELL = '''
with torch.no_grad():
    pred = model(x)
    predicted = pred.argmax(1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
