"""noether after the fix: the normalizer keeps CPU shift/scale vectors and moves them to the input's device when used.

Source: https://github.com/Emmi-AI/noether/pull/156
"`.to(x.device)` is fine because it will be a no-op for CPU and will move a temp version on CUDA".
The statistics stay on the CPU next to a CUDA model, by design; denormalizing a CUDA prediction
works. A look-alike of a helper object holding tensors `Module.to()` never sees.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MeanStdNormalizer:
    def __init__(self, mean, std):
        self.shift = torch.as_tensor(mean, dtype=torch.float32)
        self.scale = torch.as_tensor(std, dtype=torch.float32)

    def normalize(self, x):
        return (x - self.shift.to(x.device)) / self.scale.to(x.device)

    def denormalize(self, x):
        return x * self.scale.to(x.device) + self.shift.to(x.device)

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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
