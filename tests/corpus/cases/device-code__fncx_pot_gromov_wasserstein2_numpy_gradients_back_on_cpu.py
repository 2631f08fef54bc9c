"""POT `gromov_wasserstein2` hands its numpy-computed gradients `gC1`/`gC2` to a custom autograd Function as CPU tensors: `loss.backward()` on CUDA inputs mixes devices.

Source: https://github.com/PythonOT/POT/issues/351
"ot.gromov.gromov_wasserstein2 loss does not perform backprop with torch CUDA tensor": the user's
`gw_pytorch_exam` builds `C1_torch`, `C2_torch`, `a1_torch`, `a2_torch` on `cuda:0` and calls
`loss = gromov_wasserstein2(...)`, `loss.backward()`, which fails. The fix (PR #352, "part of the
computation is performed with numpy and the device was forgotten when casting back to torch")
adds `type_as=C10` / `type_as=C20` to the two `nx.from_numpy(...)` calls that build `gC1`/`gC2`,
which `nx.set_gradients` stores in its `ValFunction` and multiplies with `grad_output` in backward.
Stand-in: POT's TorchBackend (`to_numpy`, `from_numpy`, `set_gradients`/`ValFunction`),
`init_matrix`/`gwloss` as in ot.gromov, and `cg` reduced to returning the product coupling. SIM
"meta": meta stands in for cuda:0; `to_numpy` of a meta tensor (no data) gives zeros of its shape.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch.autograd import Function

class TorchBackend:
    """ot.backend.TorchBackend, reduced."""
    class ValFunction(Function):
        @staticmethod
        def forward(ctx, val, grads, *inputs):
            ctx.grads = grads
            return val

        @staticmethod
        def backward(ctx, grad_output):
            # the gradients are already computed
            return (None, None) + tuple(g * grad_output for g in ctx.grads)

    def to_numpy(self, a):
        if a.is_meta:                      # stand-in for the GPU -> host copy
            return np.zeros(tuple(a.shape))
        return a.cpu().detach().numpy()

    def from_numpy(self, a, type_as=None):
        if isinstance(a, float):
            a = np.array(a)
        if type_as is None:
            return torch.from_numpy(a)
        else:
            return torch.as_tensor(a, dtype=type_as.dtype, device=type_as.device)

    def set_gradients(self, val, inputs, grads):
        Func = self.ValFunction
        res = Func.apply(val, grads, *inputs)
        return res

def get_backend(*args):
    return TorchBackend()

def list_to_array(*lst):
    return lst

def unif(n):
    return np.ones((n,)) / n

def init_matrix(C1, C2, p, q, loss_fun='square_loss'):
    def f1(a):
        return (a**2)
    def f2(b):
        return (b**2)
    def h1(a):
        return a
    def h2(b):
        return 2 * b
    constC1 = np.dot(np.dot(f1(C1), p.reshape(-1, 1)), np.ones(len(q)).reshape(1, -1))
    constC2 = np.dot(np.ones(len(p)).reshape(-1, 1), np.dot(q.reshape(1, -1), f2(C2).T))
    constC = constC1 + constC2
    hC1 = h1(C1)
    hC2 = h2(C2)
    return constC, hC1, hC2

def gwloss(constC, hC1, hC2, T):
    tens = constC - np.dot(hC1, T).dot(hC2.T)
    return np.sum(tens * T)

def cg(a, b, M, reg, f, df, G0, log=True, **kwargs):
    """ot.optim.cg, reduced: returns the starting coupling."""
    return G0, {'u': np.zeros(len(a)), 'v': np.zeros(len(b))}

def gromov_wasserstein2(C1, C2, p, q, loss_fun='square_loss', log=False, armijo=False, **kwargs):
    p, q = list_to_array(p, q)

    p0, q0, C10, C20 = p, q, C1, C2
    nx = get_backend(p0, q0, C10, C20)

    p = nx.to_numpy(p)
    q = nx.to_numpy(q)
    C1 = nx.to_numpy(C10)
    C2 = nx.to_numpy(C20)

    constC, hC1, hC2 = init_matrix(C1, C2, p, q, loss_fun)

    G0 = p[:, None] * q[None, :]

    def f(G):
        return gwloss(constC, hC1, hC2, G)

    def df(G):
        return None

    T, log_gw = cg(p, q, 0, 1, f, df, G0, log=True, armijo=armijo, C1=C1, C2=C2, constC=constC, **kwargs)

    T0 = nx.from_numpy(T, type_as=C10)

    log_gw['gw_dist'] = nx.from_numpy(gwloss(constC, hC1, hC2, T), type_as=C10)
    log_gw['u'] = nx.from_numpy(log_gw['u'], type_as=C10)
    log_gw['v'] = nx.from_numpy(log_gw['v'], type_as=C10)
    log_gw['T'] = T0

    gw = log_gw['gw_dist']

    if loss_fun == 'square_loss':
        gC1 = nx.from_numpy(2 * C1 * (p[:, None] * p[None, :]) - 2 * T.dot(C2).dot(T.T))
        gC2 = nx.from_numpy(2 * C2 * (q[:, None] * q[None, :]) - 2 * T.T.dot(C1).dot(T))
        gw = nx.set_gradients(gw, (p0, q0, C10, C20),
                              (log_gw['u'], log_gw['v'], gC1, gC2))

    if log:
        return gw, log_gw
    else:
        return gw

device = torch.device("meta")          # torch.device("cuda:0")
n = 10
C1 = np.eye(n)
C2 = np.random.randn(n, n)
a = unif(n)
C1_torch = torch.tensor(C1, device=device, requires_grad=True)
C2_torch = torch.tensor(C2, device=device)
a1_torch = torch.tensor(a, device=device)
a2_torch = torch.tensor(a, device=device)
'''
CELL = '''
loss = gromov_wasserstein2(C1_torch, C2_torch, a1_torch, a2_torch)
loss.backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["gromov_wasserstein2"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        gC1 = nx.from_numpy(2 * C1 * (p[:, None] * p[None, :]) - 2 * T.dot(C2).dot(T.T))\n"
    "        gC2 = nx.from_numpy(2 * C2 * (q[:, None] * q[None, :]) - 2 * T.T.dot(C1).dot(T))\n",
    "        gC1 = nx.from_numpy(2 * C1 * (p[:, None] * p[None, :]) - 2 * T.dot(C2).dot(T.T), type_as=C10)\n"
    "        gC2 = nx.from_numpy(2 * C2 * (q[:, None] * q[None, :]) - 2 * T.T.dot(C1).dot(T), type_as=C10)\n",
)
CLEAN = False
