"""A model traced on the CPU, saved, reloaded and moved to the GPU: the trace recorded `torch.randn(1).to(x.device)` with the CPU baked in.

Source: https://github.com/pytorch/pytorch/issues/62961
`forward` does `y = x + torch.randn(1).to(x.device)`. Traced with CPU inputs, saved, then
`torch.jit.load('traced_model.cpt').to('cuda')` and called on CUDA inputs, it failed in the
TorchScript interpreter: the serialized code reads `torch.randn([...], device=torch.device("cpu"))`
followed by `torch.to(_4, ..., device=torch.device("cpu"))` — tracing turns `x.device` into a
constant. Stand-in: the traced module written out as the Python its serialized `code/__torch__.py`
amounts to (tracing fake tensors is not possible); the fix is to script that part or, as here, keep
the device dynamic.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class TracedNet(torch.nn.Module):        # what torch.jit.trace(net, inputs) recorded, reloaded with torch.jit.load
    def __init__(self):
        super().__init__()
        self.li = torch.nn.Linear(10, 10)

    def forward(self, x):
        _4 = torch.randn([1], dtype=torch.float32, device=torch.device("cpu"))
        _5 = _4.to(dtype=torch.float32, device=torch.device("cpu"))
        y = x + _5
        return self.li(y)

device = "cuda:0"
model = TracedNet().to(device)            # torch.jit.load('traced_model.cpt').to(device)
inputs = torch.randn(2, 10).to(device)
'''
CELL = '''
ret2 = model(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('_5 = _4.to(dtype=torch.float32, device=torch.device("cpu"))',
                  '_5 = _4.to(dtype=torch.float32, device=x.device)')
CLEAN = False
