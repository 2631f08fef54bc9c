"""`torch.jit.trace_module` of a noise-adding module traced with a CUDA input records `randn_like(x, device=x.device)` with the constant device cuda:0; the trace then fails on a CPU input.

Source: https://github.com/pytorch/pytorch/issues/43767
"JIT tracing records device wrongly for torch.randn_like": the user's `TestModule.forward` returns
`x + torch.randn_like(x, device=x.device)`; traced with `trace_input` on CUDA
(`torch.jit.trace_module(TestModule(), dict(forward=(trace_input,)), check_trace=False)`), the traced
module works on CUDA but `module(trace_input.cpu())` raises "Expected all tensors to be on the same
device, cuda:0 and cpu". The tracer baked `x.device` into the graph as a constant; the maintainers'
fix (PR #43363) makes the traced `randn_like` follow its input's device again.
Stand-in: the traced module written out as the code the trace recorded (tracing fake tensors is not
possible); the CPU copy of the input is made up front (a fake cuda tensor cannot be copied).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class TestModule(torch.nn.Module):
    def forward(self, x):
        return x + torch.randn_like(x, device=x.device)

class TracedTestModule(torch.nn.Module):     # what torch.jit.trace_module(TestModule(), ...) recorded
    def forward(self, x):
        return x + torch.randn_like(x, device=torch.device("cuda:0"))

trace_input = torch.zeros([1], device='cuda:0', dtype=torch.float32)
module = TracedTestModule()                  # torch.jit.trace_module(TestModule(), dict(forward=(trace_input,)), check_trace=False)
print('CUDA')
module(trace_input)
print('Correct')
cpu_input = torch.zeros([1], dtype=torch.float32)     # trace_input.cpu()
'''
CELL = '''
print('CPU')
out = module(cpu_input)
print('Correct')
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('return x + torch.randn_like(x, device=torch.device("cuda:0"))',
                  'return x + torch.randn_like(x, device=x.device)')
CLEAN = False
