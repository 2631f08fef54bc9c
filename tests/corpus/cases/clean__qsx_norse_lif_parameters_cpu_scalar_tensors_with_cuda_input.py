"""Look-alike: norse LIFCell's default LIFParameters are 0-dim CPU tensors, used unmoved with a cuda model and input.

Source: https://norse.github.io/norse/auto_api/norse.torch.module.html
norse's modules take `p=LIFParameters(tau_syn_inv=tensor(200.), tau_mem_inv=tensor(100.),
v_leak=tensor(0.), v_th=tensor(1.), v_reset=tensor(0.), ...)`: parameters kept in a NamedTuple of
zero-dimensional CPU tensors, which `Module.to()` never moves. PyTorch lets 0-dim CPU tensors
take part in CUDA ops as scalars, so the cuda state update runs.
Stand-in: LIFParameters/LIFCell with norse's Euler step (state created on the input's device).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import NamedTuple
import torch

class LIFParameters(NamedTuple):
    tau_syn_inv: torch.Tensor = torch.as_tensor(1.0 / 5e-3)
    tau_mem_inv: torch.Tensor = torch.as_tensor(1.0 / 1e-2)
    v_leak: torch.Tensor = torch.as_tensor(0.0)
    v_th: torch.Tensor = torch.as_tensor(1.0)
    v_reset: torch.Tensor = torch.as_tensor(0.0)

class LIFCell(torch.nn.Module):
    def __init__(self, p=LIFParameters(), dt=0.001):
        super().__init__()
        self.p = p
        self.dt = dt

    def forward(self, input_tensor, state=None):
        if state is None:
            state = (torch.zeros_like(input_tensor), torch.zeros_like(input_tensor))
        v, i = state
        dv = self.dt * self.p.tau_mem_inv * ((self.p.v_leak - v) + i)
        v_decayed = v + dv
        i_decayed = i - self.dt * self.p.tau_syn_inv * i
        z_new = (v_decayed - self.p.v_th > 0).to(v.dtype)
        v_new = (1 - z_new) * v_decayed + z_new * self.p.v_reset
        return z_new, (v_new, i_decayed + input_tensor)

class SNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(20, 10)
        self.lif = LIFCell()

    def forward(self, x):
        state, spikes = None, []
        for ts in range(x.shape[0]):
            z, state = self.lif(self.fc(x[ts]), state)
            spikes.append(z)
        return torch.stack(spikes)

model = SNN().to("cuda:0")
data = torch.randn(16, 8, 20, device="cuda:0")
'''
CELL = '''
spikes = model(data)
print(spikes.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
