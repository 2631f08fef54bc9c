"""Look-alike: Norse `lsnn_feed_forward_step` with the default `LSNNParameters` (0-dim CPU tensors) on cuda state.

Source: https://norse.github.io/norse/generated/norse.torch.functional.lsnn_feed_forward_step.html
The documented default parameters are `LSNNParameters(tau_syn_inv=tensor(200.), tau_mem_inv=tensor(100.),
tau_adapt_inv=tensor(0.0012), v_leak=tensor(0.), v_th=tensor(1.), v_reset=tensor(0.), beta=tensor(1.8))`:
zero-dimensional CPU tensors, which PyTorch lets mix with the cuda input spikes and state
(`v`, `i`, `b`) of a GPU run. Nothing has to be moved; it runs.
Stand-in: the Euler step of the feed-forward LSNN as documented (superspike replaced by a Heaviside).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from typing import NamedTuple

class LSNNParameters(NamedTuple):
    tau_syn_inv: torch.Tensor = torch.as_tensor(1.0 / 5e-3)
    tau_mem_inv: torch.Tensor = torch.as_tensor(1.0 / 1e-2)
    tau_adapt_inv: torch.Tensor = torch.as_tensor(1.0 / 800)
    v_leak: torch.Tensor = torch.as_tensor(0.0)
    v_th: torch.Tensor = torch.as_tensor(1.0)
    v_reset: torch.Tensor = torch.as_tensor(0.0)
    beta: torch.Tensor = torch.as_tensor(1.8)

class LSNNFeedForwardState(NamedTuple):
    v: torch.Tensor
    i: torch.Tensor
    b: torch.Tensor

def lsnn_feed_forward_step(input_tensor, state, p=LSNNParameters(), dt=0.001):
    dv = dt * p.tau_mem_inv * ((p.v_leak - state.v) + state.i)
    v_decayed = state.v + dv
    di = -dt * p.tau_syn_inv * state.i
    i_decayed = state.i + di
    db = dt * p.tau_adapt_inv * (p.v_th - state.b)
    b_decayed = state.b + db
    z_new = (v_decayed - b_decayed > 0).to(v_decayed.dtype)
    v_new = (1 - z_new) * v_decayed + z_new * p.v_reset
    i_new = i_decayed + input_tensor
    b_new = b_decayed + z_new * p.tau_adapt_inv * p.beta
    return z_new, LSNNFeedForwardState(v=v_new, i=i_new, b=b_new)

device = torch.device("cuda:0")
batch_size, n = 16, 100
input_spikes = (torch.rand(50, batch_size, n, device=device) > 0.9).float()
s = LSNNFeedForwardState(v=torch.zeros(batch_size, n, device=device),
                         i=torch.zeros(batch_size, n, device=device),
                         b=torch.full((batch_size, n), 1.0, device=device))
'''
CELL = '''
zs = []
for ts in range(input_spikes.shape[0]):
    z, s = lsnn_feed_forward_step(input_spikes[ts], s)
    zs.append(z)
out = torch.stack(zs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
