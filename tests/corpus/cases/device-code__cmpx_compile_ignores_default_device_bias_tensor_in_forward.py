"""`torch.compile`d module builds `bias = torch.tensor([1.0, -1.0])` inside `forward`, relying on `torch.set_default_device("cuda")`; the compiled graph creates it on the CPU.

Source: https://github.com/pytorch/pytorch/issues/175953
"`torch.set_default_device` are ignored by `torch.compile`": with the default device set to CUDA, the
user's `module.forward` does `bias = torch.tensor([1.0, -1.0], requires_grad=False)` and returns
`(x + bias).tanh()`; eager mode works, `torch.compile(m)(x)` fails with a device mismatch because
Dynamo's tracing creates the factory tensor on the CPU. Creating the constant from the input's
device (`device=x.device`) makes it independent of the global default.
Stand-in: the compiled module is the module whose `forward` creates the tensor as the compiled graph
does (no default device, i.e. on the CPU); `x` is the CUDA tensor the default device produced.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class module(nn.Module):
    def forward(self, x):
        bias = torch.tensor([1.0, -1.0], requires_grad=False)
        return (x + bias).tanh()

m = module()
x = torch.randn(2, device="cuda:0")      # torch.set_default_device("cuda"); x = torch.randn(2)
compiled = m                             # torch.compile(m): factory calls traced without the default device
'''
CELL = '''
output2 = compiled(x)
print("compiled:", output2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["compiled"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("bias = torch.tensor([1.0, -1.0], requires_grad=False)",
                  "bias = torch.tensor([1.0, -1.0], requires_grad=False, device=x.device)")
CLEAN = False
