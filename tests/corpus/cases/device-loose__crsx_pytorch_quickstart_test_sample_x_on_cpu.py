"""PyTorch Quickstart tutorial: the last "Evaluate" cell feeds `test_data[0][0]` (CPU) to the model trained on cuda.

Source: https://github.com/pytorch/tutorials/pull/1890
"If device is not 'cpu', model(x) fails with RuntimeError: Expected all tensors to be on the same
device, but found at least two devices...": the tutorial trains `model = NeuralNetwork().to(device)`
and at the end takes `x, y = test_data[0][0], test_data[0][1]` straight from the FashionMNIST
dataset, which is on the CPU. The PR moves the sample with `x = x.to(device)` before `model(x)`.
Stand-in: random 1x28x28 images instead of FashionMNIST; the tutorial's NeuralNetwork unchanged.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")   # the tutorial: "cuda" if torch.cuda.is_available() else "cpu"

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10)
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork().to(device)
test_data = [(torch.rand(1, 28, 28), i % 10) for i in range(4)]   # datasets.FashionMNIST(train=False, transform=ToTensor())
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]

model.eval()
x, y = test_data[0][0], test_data[0][1]
'''
CELL = '''
with torch.no_grad():
    pred = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
