"""`torch.jit.freeze`'d model moved with `.to("cuda")`: the frozen buffer became a constant and stays on the CPU.

Source: https://github.com/pytorch/pytorch/issues/57569
The user's module registers a buffer `twos = 2.0 * torch.ones(3)` and returns `self.twos * x`. They
scripted it, froze it (`ms = torch.jit.freeze(ms)`), then `ms = ms.to("cuda")` and called it on a
CUDA input: "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!". Freezing inlines buffers as graph constants, which `.to()` no longer moves; the thread's
answer: freeze after moving the module to its device. Stand-ins: `torch.jit.script` as the module
itself, `torch.jit.freeze` as a wrapper module holding the buffer as a plain constant attribute.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("twos", 2.0 * torch.ones(3))

    def forward(self, x):
        return self.twos * x

class FrozenModule(torch.nn.Module):   # what torch.jit.freeze returns: buffers inlined as constants
    def __init__(self, scripted):
        super().__init__()
        self.c0 = scripted.twos.clone()     # CONSTANTS.c0, no longer a buffer

    def forward(self, x):
        return self.c0 * x

def freeze(scripted):                  # torch.jit.freeze
    return FrozenModule(scripted)

m = M().eval()
m(torch.ones(3))
ms = m                                 # ms = torch.jit.script(m)
ms = freeze(ms)
ms = ms.to("cuda:0")
print(ms(torch.ones(3)))               # => tensor([2., 2., 2.])
'''
CELL = '''
ms(torch.ones(3).to("cuda:0"))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ms"]
FIX = "namespace"
REFERENCE_FIX = '''
ms = m.to("cuda:0")                    # script, move, then freeze
ms = freeze(ms)
'''
REFERENCE_EDIT = None
CLEAN = False
