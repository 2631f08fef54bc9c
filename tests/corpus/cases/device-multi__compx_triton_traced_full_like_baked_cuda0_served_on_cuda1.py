"""Triton server: a `torch.jit.trace`d model traced on cuda:0 fails on the instance placed on cuda:1 ("cuda:0 and cuda:1").

Source: https://github.com/triton-inference-server/server/issues/5370
The user's module `MM` does `fill = torch.full_like(x, 1e-6)` and `torch.where(cond, fill, x)`; they
traced it with `ii` on "cuda" (`jm = torch.jit.trace(m, ii)`) and served it on a two-A100 box, where
the model instance on the second GPU raised "Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cuda:1!". Tracing records the device of the `full_like` output as a
constant (cuda:0); the maintainers' answer (documented in the pytorch_backend README) is to script
the model instead of tracing it, so the device is read from `x` at run time. Stand-ins: the traced
graph written out as the code the trace recorded (tracing fake tensors is not possible), the server
instance as a direct call with the request tensor on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

class MM(torch.nn.Module):
    def forward(self, x):
        cond = (x == 0)
        fill = torch.full_like(x, 1e-6)
        y = torch.where(cond, fill, x)
        return y[..., :3]

class TracedMM(torch.nn.Module):      # what torch.jit.trace(m, ii) recorded with ii on cuda:0
    def forward(self, x):
        cond = torch.eq(x, 0)
        fill = torch.full_like(x, 1e-06, device=torch.device("cuda:0"))
        y = torch.where(cond, fill, x)
        return y[..., :3]

m = MM().to("cuda:0")
ii = torch.rand(3, 6).to("cuda:0")
jm = TracedMM()                        # jm = torch.jit.trace(m, ii); jm.save(ts_model_path)
_ = jm(ii)                             # fine on the GPU it was traced on
'''
CELL = '''
request = torch.rand(3, 6).to("cuda:1")   # the model instance on the second GPU
out = jm(request)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["jm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('fill = torch.full_like(x, 1e-06, device=torch.device("cuda:0"))',
                  'fill = torch.full_like(x, 1e-06, device=x.device)')
CLEAN = False
