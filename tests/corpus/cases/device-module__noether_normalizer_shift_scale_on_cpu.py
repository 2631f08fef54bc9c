"""noether: the dataset normalizer's shift/scale tensors stay on the CPU while the surrogate model predicts on the GPU.

Source: https://github.com/Emmi-AI/noether/pull/156
"fix: support normalization and denormalization on CUDA. There is nothing against doing
normalization on CUDA, especially if the input tensor is already on device. In these cases we
need to move the shift and scale vectors to same device though." The normalizer computed its
statistics from the CPU dataset and kept them as plain tensors; denormalizing a CUDA prediction
mixed devices. Stand-in: a mean/std normalizer object and a small MLP surrogate.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MeanStdNormalizer:
    def __init__(self, mean, std):
        self.shift = torch.as_tensor(mean, dtype=torch.float32)
        self.scale = torch.as_tensor(std, dtype=torch.float32)

    def normalize(self, x):
        return (x - self.shift) / self.scale

    def denormalize(self, x):
        return x * self.scale + self.shift

class SurrogateModel(nn.Module):
    def __init__(self, in_dim=3, hidden=32, out_dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, out_dim))

    def forward(self, coords):
        return self.net(coords)

def predict(model, normalizer, coords):
    with torch.no_grad():
        pred = model(coords)
    return normalizer.denormalize(pred)

device = torch.device("cuda:0")
# statistics of the training targets (pressure, vx, vy, vz), computed on the CPU dataset
target_normalizer = MeanStdNormalizer(mean=[101325.0, 0.1, 0.0, -0.2], std=[250.0, 3.0, 1.5, 1.2])
model = SurrogateModel().to(device)
coords = torch.randn(128, 3).to(device)
'''
CELL = '''
fields = predict(model, target_normalizer, coords)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target_normalizer"]
FIX = "namespace"
REFERENCE_FIX = '''
target_normalizer.shift = target_normalizer.shift.to(device)
target_normalizer.scale = target_normalizer.scale.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
