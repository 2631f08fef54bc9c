"""A compiled model's `forward` draws `idx = torch.randperm(x.size(0))` without a device and uses it in `index_add` on CUDA activations.

Source: https://github.com/pytorch/pytorch/issues/172184
"torch.compile silently bypasses device mismatch checks with torch.randperm() in index_add
operations": the reporter's `Model.forward` (conv, bn, pool, fc) does
`idx = torch.randperm(x.size(0))[:y.size(0)]` ("BUG: randperm creates CPU tensor by default") and then
`index_add` with CUDA tensors. Eager mode raises "Expected all tensors to be on the same device, but got
index is on cpu ... (wrapper_CUDA_index_add)"; the compiled model silently ran because Inductor moved
the `randperm` to CUDA (PR #183007 now makes compile raise too). The fix in user code: create the
permutation on the activations' device.
Stand-in: the compiled model runs eagerly (the behaviour the fix restores).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 16 * 16, 10)

    def forward(self, x, y):
        x = self.conv(x)
        x = self.bn(x)
        x = F.relu(x)
        x = self.pool(x)
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        idx = torch.randperm(x.size(0))[:y.size(0)]
        return torch.index_add(x, 0, idx, y)

model = Model().to("cuda:0").eval()
compiled = model                        # torch.compile(model)
x = torch.randn(8, 3, 32, 32, device="cuda:0")
y = torch.randn(6, 10, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    out = compiled(x, y)
'''
EXPECT_ERROR = ("same device",)
CULPRITS = ["compiled"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("idx = torch.randperm(x.size(0))[:y.size(0)]",
                  "idx = torch.randperm(x.size(0), device=x.device)[:y.size(0)]")
CLEAN = False
