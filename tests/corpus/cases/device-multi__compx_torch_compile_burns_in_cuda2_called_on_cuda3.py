"""`torch.compile`d gemm called on cuda:2 and then on cuda:3: the compiled code allocates its output on the device of the first call.

Source: https://github.com/pytorch/pytorch/issues/91777
`gemm_opt = torch.compile(gemm)` was called with tensors on cuda:2, then with the same tensors moved
to cuda:3: "Expected all tensors to be on the same device". The generated Inductor code reads
`with torch.cuda.device(2): buf0 = empty_strided(..., device='cuda')` and `aten.mm.out(arg0_1,
arg1_1, out=buf0)` — device 2 burnt in, without a guard that recompiles for a new device (fixed later
in PyTorch). The user-side fix is a compiled callable per device.
Stand-in: a `compile` that records the first call's device and replays Inductor's generated `call`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

def gemm(x, y):
    return x @ y

class CompiledGemm:                      # what torch.compile(gemm) runs after the first call
    def __init__(self, fn):
        self.fn, self.device = fn, None

    def __call__(self, arg0_1, arg1_1):
        if self.device is None:
            self.device = arg0_1.device  # specialised at first compile, no device guard
        buf0 = torch.empty((arg0_1.shape[0], arg1_1.shape[1]), dtype=arg0_1.dtype, device=self.device)
        torch.mm(arg0_1, arg1_1, out=buf0)
        return buf0

def compile(fn):                         # torch.compile
    return CompiledGemm(fn)

gemm_opt = compile(gemm)
x2 = torch.randn(1024, 1024, device="cuda:2")
y2 = torch.randn(1024, 1024, device="cuda:2")
print(gemm(x2, y2).device)
print(gemm_opt(x2, y2).device)
'''
CELL = '''
x3 = x2.to("cuda:3")
y3 = y2.to("cuda:3")
print(gemm(x3, y3).device)
print(gemm_opt(x3, y3).device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gemm_opt"]
FIX = "namespace"
REFERENCE_FIX = '''
gemm_opt = compile(gemm)
'''
REFERENCE_EDIT = None
CLEAN = False
