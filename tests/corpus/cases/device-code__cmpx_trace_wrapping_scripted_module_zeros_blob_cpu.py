"""A module traced on CPU that wraps a `torch.jit.script`-ed submodule is called with a CUDA input: the `blob = torch.zeros(..., device=input.device)` in the trace stays on the CPU.

Source: https://github.com/pytorch/pytorch/issues/43134
"[jit] need a better way to handle mix CPU/GPU (Inference/Training) for tracing": `MyScriptModule`
builds `blob = torch.zeros(input.shape[0], device=input.device)` and returns `blob + input`;
`MyTraceModule` holds `self.mod = torch.jit.script(MyScriptModule())`; the user traced it with a CPU
`input` (`traced = torch.jit.trace(myModule, (input))`) and called `traced(input_gpu)`, which fails
with "Expected all tensors to be on the same device": tracing specialises on the traced input's
device, so the recorded graph creates `blob` on the CPU. The maintainers: tracing only supports the
device of the traced inputs (trace on the device it will run on); the graph must read the device
from the input at run time.
Stand-in: the traced module written out as the code the trace recorded (tracing fake tensors is not
possible).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class MyScriptModule(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, input):
        blob = torch.zeros(input.shape[0], device=input.device)
        return blob + input

class TracedMyTraceModule(nn.Module):      # what torch.jit.trace(MyTraceModule(), (input)) recorded
    def forward(self, input):
        blob = torch.zeros(input.shape[0], device=torch.device("cpu"))
        return blob + input

input = torch.zeros(10)
input_gpu = torch.zeros(10, device="cuda:0")     # input.to("cuda:0")
traced = TracedMyTraceModule()                    # torch.jit.trace(myModule, (input))
print(traced(input))
'''
CELL = '''
print(traced(input_gpu))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["traced"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('blob = torch.zeros(input.shape[0], device=torch.device("cpu"))',
                  'blob = torch.zeros(input.shape[0], device=input.device)')
CLEAN = False
