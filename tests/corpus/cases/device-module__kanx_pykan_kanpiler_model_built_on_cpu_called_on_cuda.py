"""pykan `kanpiler` compiles a sympy formula into a KAN on the CPU; calling it on a cuda tensor fails.

Source: https://github.com/KindXiaoming/pykan/issues/427
`phi = 3*t/sqrt(r); phi_model = kanpiler([t, r], phi); phi_model(tr)` with `tr` on cuda raised "cuda:0
and cpu": kanpiler takes no device and builds the model on the CPU. The maintainer's answer:
`phi_model = kanpiler([t, r], phi).to(device)`. Stand-in: kanpiler reduced to a symbolic KAN with the
affine parameters (a, b, c, d) of each edge function, built on the CPU; sympy only names the inputs.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from sympy import symbols, sqrt

class SymbolicKAN(nn.Module):
    """What expr2kan returns: y = sum_i c_i * f_i(a_i * x_i + b_i) + d, affine params fitted to the formula."""
    def __init__(self, n_in, funs):
        super().__init__()
        self.funs = funs
        self.affine = nn.Parameter(torch.tensor([[1., 0., 1., 0.]] * n_in))   # a, b, c, d per input edge
        self.node_scale = nn.Parameter(torch.ones(1))
        self.node_bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        a, b, c, d = self.affine.unbind(1)
        z = a * x + b
        out = torch.ones(x.shape[0], device=x.device)
        for i, f in enumerate(self.funs):
            out = out * (c[i] * f(z.narrow(1, i, 1).squeeze(1)) + d[i])
        return (out * self.node_scale + self.node_bias).unsqueeze(1)

def kanpiler(variables, expr, grid=5, k=3, auto_lock=True):
    # (reduced) 3*t/sqrt(r): multiplication node of t -> 3*t and r -> r**-0.5
    return SymbolicKAN(len(variables), [lambda u: 3 * u, lambda u: u.clamp_min(1e-6) ** -0.5])

device = torch.device("cuda:0")
phi, r, t = symbols('phi r t')
phi = 3 * t / sqrt(r)
phi_model = kanpiler([t, r], phi)
tr = (torch.rand(100, 2) + 0.1).to(device)
'''
CELL = '''
phi_model(tr)
'''
EXPECT_ERROR = ('Expected all tensors to be on the same device',)
CULPRITS = ['phi_model']
FIX = "namespace"
REFERENCE_FIX = '''
phi_model = phi_model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
