"""Look-alike: Norse `lif_feed_forward_step` with user `LIFParameters` built from Python numbers on the CPU, state on cuda:1.

Source: https://norse.github.io/norse/generated/norse.torch.functional.lif_feed_forward_step.html
`LIFParameters(tau_syn_inv=torch.as_tensor(1/5e-3), tau_mem_inv=torch.as_tensor(1/1e-2), v_leak=..., v_th=...,
v_reset=...)` is a NamedTuple of 0-dim CPU tensors that `Module.to()` never moves; the step mixes them
with the input and `LIFFeedForwardState(v, i)` on the second GPU. 0-dim CPU tensors combine with
any device, so the loop over time steps runs.
Stand-in: the documented Euler step (Heaviside in place of superspike).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from typing import NamedTuple

class LIFParameters(NamedTuple):
    tau_syn_inv: torch.Tensor = torch.as_tensor(1.0 / 5e-3)
    tau_mem_inv: torch.Tensor = torch.as_tensor(1.0 / 1e-2)
    v_leak: torch.Tensor = torch.as_tensor(0.0)
    v_th: torch.Tensor = torch.as_tensor(1.0)
    v_reset: torch.Tensor = torch.as_tensor(0.0)

class LIFFeedForwardState(NamedTuple):
    v: torch.Tensor
    i: torch.Tensor

def lif_feed_forward_step(input_spikes, state, p=LIFParameters(), dt=0.001):
    dv = dt * p.tau_mem_inv * ((p.v_leak - state.v) + state.i)
    v_decayed = state.v + dv
    di = -dt * p.tau_syn_inv * state.i
    i_decayed = state.i + di
    z_new = (v_decayed - p.v_th > 0).to(v_decayed.dtype)
    v_new = (1 - z_new) * v_decayed + z_new * p.v_reset
    i_new = i_decayed + input_spikes
    return z_new, LIFFeedForwardState(v=v_new, i=i_new)

device = torch.device("cuda:1")
p = LIFParameters(tau_mem_inv=torch.as_tensor(1 / 2e-2), v_th=torch.as_tensor(0.5))
linear = torch.nn.Linear(20, 30).to(device)
x = torch.rand(10, 8, 20, device=device)
state = LIFFeedForwardState(v=torch.zeros(8, 30, device=device), i=torch.zeros(8, 30, device=device))
'''
CELL = '''
outputs = []
for ts in range(x.shape[0]):
    z, state = lif_feed_forward_step(linear(x[ts]), state, p)
    outputs.append(z)
out = torch.stack(outputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
