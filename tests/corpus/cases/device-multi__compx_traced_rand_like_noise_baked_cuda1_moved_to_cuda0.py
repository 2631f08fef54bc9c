"""A module traced on cuda:1 then moved with `.to('cuda:0')`: the traced `rand_like` noise is still made on cuda:1.

Source: https://github.com/pytorch/pytorch/issues/17655
`Example.forward` adds `torch.rand_like(module_output)` to a Linear's output. The user traced it on
cuda:1 (`jit_model_device_1 = torch.jit.trace(model, dummy_input_device_1)`), then
`jit_model_device_0 = jit_model_device_1.to('cuda:0')` and called it on a cuda:0 input: the add
failed with a device mismatch. The trace stores the `rand_like` as a factory call with the trace-time
device as a constant, so `.to()` moves the Linear but not the noise. Fix: script the forward (or
trace on the target device).
Stand-in: the traced module written as the code the trace recorded.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

class TracedExample(torch.nn.Module):     # what torch.jit.trace(model, dummy_input_device_1) recorded
    def __init__(self):
        super().__init__()
        self.module = torch.nn.Linear(10, 100)

    def forward(self, x):
        module_output = self.module(x)
        noise = torch.rand(module_output.shape, dtype=torch.float32, device=torch.device("cuda:1"))
        return module_output + noise

jit_model_device_1 = TracedExample().to("cuda:1")
dummy_input_device_1 = torch.randn(1, 10, device="cuda:1")
jit_model_device_1(dummy_input_device_1)
'''
CELL = '''
jit_model_device_0 = jit_model_device_1.to('cuda:0')
dummy_input_device_0 = torch.randn(1, 10, device="cuda:0")
jit_model_device_0(dummy_input_device_0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["jit_model_device_0"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('noise = torch.rand(module_output.shape, dtype=torch.float32, device=torch.device("cuda:1"))',
                  'noise = torch.rand(module_output.shape, dtype=torch.float32, device=module_output.device)')
CLEAN = False
