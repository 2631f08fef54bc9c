"""A model moved to CUDA is called with the CPU tensor it was fed moved copies of before.

Source: https://github.com/pytorch/pytorch/issues/159133
The user's repro for "Inconsistent Error Message for Cross-Device Input in torch.compile":
`model = BuggyModel().cuda().eval()`, `x = torch.randn(1, 10)` on the CPU; `model(x.to('cuda'))`
works, then `model(x)` fails in eager mode with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in
method wrapper_CUDA_addmm)" (torch.compile only worded it worse; pytorch/pytorch#185412 made it
say the same). The cell here is the eager call.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class BuggyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 20)

    def forward(self, x):
        return self.fc(x)

model = BuggyModel().to("cuda:0").eval()   # Model on CUDA (.cuda())
x = torch.randn(1, 10)                     # Input on CPU
out = model(x.to("cuda:0"))
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
