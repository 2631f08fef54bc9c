"""A module compiled on the CPU is moved to CUDA and compiled again, then called with the CPU input that was used before.

Source: https://github.com/pytorch/pytorch/issues/163064
"torch.compile: Segfault or 'Unhandled FakeTensor Device Propagation' when compiling a Module on CPU,
moving it to CUDA, recompiling, then calling with a CPU input": the user's `repro()` builds
`MyModel` (one `nn.Linear(10, 4)`), runs and compiles it on the CPU with `input_tensor = GetInput()`
(a CPU tensor), calls `model.to("cuda")`, `compiled_cuda = torch.compile(model)` and then
`compiled_cuda(input_tensor)` with the CPU input. The report: the expected outcome is the ordinary
device-mismatch error (the input has to be moved to the model's device); compile turned it into a
segfault or an internal FakeTensor error.
Stand-in: the compiled module is the module itself (eager semantics); `GetInput()` without
`requires_grad` (fake CUDA tensors cannot run autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(10, 4)

    def forward(self, x):
        return self.linear(x)

def my_model_function():
    return MyModel()

def GetInput():
    return torch.randn(1, 10)          # CPU tensor

model = my_model_function()
input_tensor = GetInput()
_ = model(input_tensor)                # eager CPU run OK
compiled_cpu = model                   # torch.compile(model)
_ = compiled_cpu(input_tensor)         # OK on CPU
model.to("cuda:0")
compiled_cuda = model                  # torch.compile(model)
'''
CELL = '''
out = compiled_cuda(input_tensor)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
input_tensor = input_tensor.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
