"""`torch.export.export` of a module whose parameters are still on the CPU, with an example input created on CUDA.

Source: https://github.com/pytorch/pytorch/issues/184841
The reporter's `TwoLayerMLP(d)` keeps its parameters on the CPU (the `nn.Module` default) while
`example_input = torch.randn(1, d, device="cuda")`; `torch.export.export(module, (example_input,))`
fails deep in FakeTensor device propagation instead of the plain "put the module and its inputs on the
same device" message (PR #185892 makes export say so). The CPU export (CPU module, CPU input) works;
the fix is to move the module to the example input's device (or the input to the module's).
Stand-in: the cell runs the forward that export traces.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

class TwoLayerMLP(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = torch.nn.Linear(d, d)
        self.fc2 = torch.nn.Linear(d, d)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

d = 8
module = TwoLayerMLP(d)                            # parameters on CPU (default)
example_input = torch.randn(1, d, device="cuda:0")
print(f"module params device: {next(module.parameters()).device}")
print(f"example input device: {example_input.device}")
'''
CELL = '''
out = module(example_input)                        # ep = torch.export.export(module, (example_input,)) traces this
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["module"]
FIX = "namespace"
REFERENCE_FIX = '''
module.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
