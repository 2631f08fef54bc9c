"""mamba_ssm's reference selective scan on a bfloat16 block: u/delta/B/C in bf16, A/D/delta_bias in fp32, upcast inside and cast back.

Source: https://github.com/state-spaces/mamba/blob/main/mamba_ssm/ops/selective_scan_interface.py
`selective_scan_ref` records `dtype_in = u.dtype`, computes everything in float32 (`u.float()`,
`delta.float()`, `delta_bias[..., None].float()`, `B.float()`, `C.float()`) and returns
`out.to(dtype=dtype_in)`; Mamba keeps `A_log`, `D` and the dt bias in float32 while the projections run
in bf16 (`A = -torch.exp(self.A_log.float())`). Look-alike: float32 and bfloat16 tensors mixed in one
call, followed by a bf16 `out_proj`; it runs.
Stand-in: `selective_scan_ref` (einops `rearrange`/`repeat` written with torch view/unsqueeze) and the
projections of a Mamba block around it. CPU: dtype look-alike.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def selective_scan_ref(u, delta, A, B, C, D=None, z=None, delta_bias=None, delta_softplus=False,
                       return_last_state=False):
    dtype_in = u.dtype
    u = u.float()
    delta = delta.float()
    if delta_bias is not None:
        delta = delta + delta_bias[..., None].float()
    if delta_softplus:
        delta = F.softplus(delta)
    batch, dim, dstate = u.shape[0], A.shape[0], A.shape[1]
    is_variable_B = B.dim() >= 3
    is_variable_C = C.dim() >= 3
    B = B.float()
    C = C.float()
    x = A.new_zeros((batch, dim, dstate))
    ys = []
    deltaA = torch.exp(torch.einsum('bdl,dn->bdln', delta, A))
    if not is_variable_B:
        deltaB_u = torch.einsum('bdl,dn,bdl->bdln', delta, B, u)
    else:
        deltaB_u = torch.einsum('bdl,bnl,bdl->bdln', delta, B, u)
    last_state = None
    for i in range(u.shape[2]):
        x = deltaA[:, :, i] * x + deltaB_u[:, :, i]
        if not is_variable_C:
            y = torch.einsum('bdn,dn->bd', x, C)
        else:
            y = torch.einsum('bdn,bn->bd', x, C[:, :, i])
        if i == u.shape[2] - 1:
            last_state = x
        ys.append(y)
    y = torch.stack(ys, dim=2)
    out = y if D is None else y + u * D.view(-1, 1)
    if z is not None:
        out = out * F.silu(z)
    out = out.to(dtype=dtype_in)
    return out if not return_last_state else (out, last_state)

torch.manual_seed(0)
d_model, d_inner, d_state, dt_rank, L = 16, 32, 8, 1, 10
in_proj = nn.Linear(d_model, 2 * d_inner, bias=False).to(torch.bfloat16)
x_proj = nn.Linear(d_inner, dt_rank + 2 * d_state, bias=False).to(torch.bfloat16)
dt_proj_weight = (torch.randn(d_inner, dt_rank) * dt_rank ** -0.5).to(torch.bfloat16)
out_proj = nn.Linear(d_inner, d_model, bias=False).to(torch.bfloat16)
A_log = torch.log(torch.arange(1, d_state + 1, dtype=torch.float32)).repeat(d_inner, 1)   # kept in fp32
D = torch.ones(d_inner)                                                                      # fp32
dt_bias = torch.rand(d_inner) * 0.1                                                          # fp32
hidden_states = torch.randn(2, L, d_model, dtype=torch.bfloat16)
'''
CELL = '''
xz = in_proj(hidden_states).transpose(1, 2)
x, z = xz.chunk(2, dim=1)
x_dbl = x_proj(x.transpose(1, 2).reshape(-1, d_inner))
dt, B, C = torch.split(x_dbl, [dt_rank, d_state, d_state], dim=-1)
dt = (dt_proj_weight @ dt.t()).view(d_inner, 2, L).transpose(0, 1)
B = B.view(2, L, d_state).transpose(1, 2).contiguous()
C = C.view(2, L, d_state).transpose(1, 2).contiguous()
A = -torch.exp(A_log.float())
y = selective_scan_ref(x, dt, A, B, C, D.float(), z=z, delta_bias=dt_bias.float(), delta_softplus=True)
out = out_proj(y.transpose(1, 2))
print(y.dtype, out.dtype, out.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
