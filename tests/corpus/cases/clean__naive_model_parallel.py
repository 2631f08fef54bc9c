"""Model parallel by hand: first half on GPU 0, second half on GPU 1, the forward moves `x`.

Source: https://discuss.pytorch.org/t/model-parallelism-in-pytorch-for-large-r-than-1-gpu-models/778/2
The answer's pattern: put some layers on GPU 0 and the others on GPU 1 and, in `forward`, move
the activation between them. A model split on purpose across two devices, which must not be
reported as "partly moved".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MyModel(nn.Module):
    def __init__(self, split_gpus=True):
        super().__init__()
        self.large_submodule1 = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256))
        self.large_submodule2 = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
        self.split_gpus = split_gpus
        if split_gpus:
            self.large_submodule1.to("cuda:0")
            self.large_submodule2.to("cuda:1")

    def forward(self, x):
        x = self.large_submodule1(x)
        if self.split_gpus:
            x = x.to("cuda:1")  # P2P GPU transfer
        return self.large_submodule2(x)

model = MyModel()
x = torch.randn(8, 64, device="cuda:0")
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
