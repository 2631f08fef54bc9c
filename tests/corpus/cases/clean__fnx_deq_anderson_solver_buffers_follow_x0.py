"""locuslab/deq Anderson acceleration: the solver's history buffers are created inside the call with `dtype=x0.dtype, device=x0.device`.

Source: https://github.com/locuslab/deq/blob/master/lib/solvers.py
`anderson(f, x0, m=6, lam=1e-4, threshold=50, eps=1e-3, ...)` allocates `X`, `F`, `H`, `y` and the
`lam * torch.eye(n, ...)` regulariser with `dtype=x0.dtype, device=x0.device`, so a DEQ layer run in
float64 gets float64 solver state although the default dtype is float32. Look-alike: tensors made
inside a solver loop, with a non-default dtype; it runs. Stand-ins: `anderson` with
`torch.linalg.solve` for the removed `torch.solve`, a small `f(z) = tanh(W z + U x)` equilibrium
layer; CPU (one device, dtype only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def anderson(f, x0, m=6, lam=1e-4, threshold=50, eps=1e-3, stop_mode='rel', beta=1.0, **kwargs):
    bsz, d, L = x0.shape
    X = torch.zeros(bsz, m, d*L, dtype=x0.dtype, device=x0.device)
    F = torch.zeros(bsz, m, d*L, dtype=x0.dtype, device=x0.device)
    X[:,0], F[:,0] = x0.reshape(bsz, -1), f(x0).reshape(bsz, -1)
    X[:,1], F[:,1] = F[:,0], f(F[:,0].reshape_as(x0)).reshape(bsz, -1)
    H = torch.zeros(bsz, m+1, m+1, dtype=x0.dtype, device=x0.device)
    H[:,0,1:] = H[:,1:,0] = 1
    y = torch.zeros(bsz, m+1, 1, dtype=x0.dtype, device=x0.device)
    y[:,0] = 1
    lowest, lowest_xest = 1e8, x0
    for k in range(2, threshold):
        n = min(k, m)
        G = F[:,:n]-X[:,:n]
        H[:,1:n+1,1:n+1] = torch.bmm(G,G.transpose(1,2)) + lam*torch.eye(n, dtype=x0.dtype,device=x0.device)[None]
        alpha = torch.linalg.solve(H[:,:n+1,:n+1], y[:,:n+1])[:, 1:n+1, 0]
        X[:,k%m] = beta * (alpha[:,None] @ F[:,:n])[:,0] + (1-beta)*(alpha[:,None] @ X[:,:n])[:,0]
        F[:,k%m] = f(X[:,k%m].reshape_as(x0)).reshape(bsz, -1)
        gx = (F[:,k%m] - X[:,k%m]).view_as(x0)
        rel_diff = gx.norm().item() / (1e-5 + F[:,k%m].norm().item())
        if rel_diff < lowest:
            lowest, lowest_xest = rel_diff, X[:,k%m].view_as(x0).clone().detach()
        if rel_diff < eps:
            break
    return {"result": lowest_xest, "rel_lowest": lowest, "nstep": k}

class DEQLayer(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)
        self.U = nn.Linear(d, d)
        nn.init.normal_(self.W.weight, std=0.1 / d ** 0.5)

    def forward(self, x):
        f = lambda z: torch.tanh(self.W(z.transpose(1, 2)).transpose(1, 2)
                                 + self.U(x.transpose(1, 2)).transpose(1, 2))
        z0 = torch.zeros_like(x)
        with torch.no_grad():
            out = anderson(f, z0, m=5, threshold=30, eps=1e-6)
        return out

layer = DEQLayer(16).double()
x = torch.randn(4, 16, 3, dtype=torch.float64)
'''
CELL = '''
out = layer(x)
print(out["result"].dtype, out["nstep"], torch.get_default_dtype())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
