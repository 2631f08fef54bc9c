"""`torch.jit.trace` of a timestep-embedding function traced with CPU inputs, then called with CUDA inputs: the traced `arange` keeps `device=cpu`.

Source: https://github.com/pytorch/pytorch/issues/145995
The user's `timestep_embedding(timesteps, dim)` builds
`freqs = torch.arange(0, dim, dtype=torch.float32, device=timesteps.device)`; they traced it with
CPU `t`/`dim` (`script = torch.jit.trace(timestep_embedding, (t, dim))`), then called
`script(t.to("cuda"), dim.to("cuda"))` and got the device mismatch: tracing records
`timesteps.device` as the constant `cpu`. The answer: trace with inputs on the device it will run
on, or script the device-dependent part so the device is read at run time.
Stand-in: the traced function written out as the code the trace recorded (tracing fake tensors is
not possible), held in a small module as `torch.jit.trace` returns a callable object.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def timestep_embedding(timesteps, dim):
    freqs = torch.arange(start=0, end=dim, dtype=torch.float32, device=timesteps.device)
    return timesteps[:, None] * freqs[None]

class TracedTimestepEmbedding(torch.nn.Module):   # what torch.jit.trace(timestep_embedding, (t, dim)) recorded
    def forward(self, timesteps, dim: int = 256):
        freqs = torch.arange(start=0, end=256, dtype=torch.float32, device=torch.device("cpu"))
        return timesteps[:, None] * freqs[None]

dim = 256
t = torch.zeros((1,)).long()
script = TracedTimestepEmbedding()          # torch.jit.trace(timestep_embedding, (t, dim))
_ = script(t, dim)                          # traced function with CPU inputs: fine
'''
CELL = '''
t_gpu = t.to("cuda:0")
_ = timestep_embedding(t_gpu, dim)          # original function on the GPU: fine
_ = script(t_gpu, dim)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["script"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('freqs = torch.arange(start=0, end=256, dtype=torch.float32, device=torch.device("cpu"))',
                  'freqs = torch.arange(start=0, end=256, dtype=torch.float32, device=timesteps.device)')
CLEAN = False
