"""Reentrant `checkpoint(f, x)` recomputes `f` in backward without the `torch.set_default_device` mode: `torch.ones(0)` inside `f` lands on the CPU.

Source: https://github.com/pytorch/pytorch/issues/124788
"torch.nn.checkpoint.checkpoint ignores default device in backward() call": with
`torch.set_default_device('cuda')`, `def f(x): return x * torch.ones(0)` works when called directly,
but `checkpoint(f, x, use_reentrant=True).sum().backward()` fails with a device mismatch. The
maintainer (soulitzer) explains that the default device is a TorchFunctionMode that is popped off
the stack by the time backward re-runs `f`, so the factory call in the recompute makes a CPU tensor.
It was fixed only for `use_reentrant=False` (a later PR bringing the reentrant path to parity was
declined: "please use use_reentrant=False"). The factory call that relies on the global default device
is the culprit; giving it the input's device makes the recompute independent of the mode.
SIM "meta": the meta device stands in for CUDA as the default device.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch.utils.checkpoint import checkpoint

torch.set_default_device('meta')       # torch.set_default_device('cuda')

def f(x):
    return x * torch.ones(0)

f(torch.ones(1).requires_grad_()).sum().backward()   # works
'''
CELL = '''
checkpoint(f, torch.ones(1).requires_grad_(), use_reentrant=True).sum().backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["f"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return x * torch.ones(0)", "return x * torch.ones(0, device=x.device)")
CLEAN = False
