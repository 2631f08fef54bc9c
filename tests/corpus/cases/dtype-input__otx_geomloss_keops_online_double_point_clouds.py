"""GeomLoss `SamplesLoss("sinkhorn")` on float64 point clouds: the KeOps reduction only takes float32.

Source: https://github.com/jeanfeydy/geomloss/issues/12
"DoubleTensors Error": calling the Sinkhorn loss on DoubleTensors failed inside the compiled KeOps
routine (`pykeops::get_data<float>`) with "expected scalar type Float but found Double"; the PyKeOps 1.2
binary was built for float32 and writes its reduction into a float32 result. The library's own answer
(issue #60) is that GeomLoss works in float32 by default; converting the point clouds with `.float()`
makes the call run. Stand-ins: `SamplesLoss` dispatching to the "online" backend, whose KeOps
log-sum-exp reduction is written with torch ops into a float32 result buffer; a few Sinkhorn steps.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

def keops_lse_reduction(x, y, g, eps):
    """Stand-in for the compiled KeOps formula LogSumExp_j(g_j - |x_i - y_j|^2 / 2eps): float32 binary."""
    out = torch.empty(x.shape[0], y.shape[0], dtype=torch.float32, device=x.device)
    torch.mm(x, y.t(), out=out)                       # the generated kernel reads float* pointers
    C = (x * x).sum(-1, keepdim=True) / 2 - out + (y * y).sum(-1)[None, :] / 2
    return torch.logsumexp(g[None, :] - C / eps, dim=1)

class SamplesLoss(torch.nn.Module):
    def __init__(self, loss="sinkhorn", p=2, blur=0.05, backend="online", n_iter=5):
        super().__init__()
        self.loss, self.p, self.blur, self.backend, self.n_iter = loss, p, blur, backend, n_iter

    def forward(self, x, y):
        eps = self.blur ** self.p
        a_log = torch.full((x.shape[0],), -np.log(x.shape[0]), dtype=x.dtype)
        b_log = torch.full((y.shape[0],), -np.log(y.shape[0]), dtype=y.dtype)
        f = torch.zeros(x.shape[0], dtype=x.dtype)
        g = torch.zeros(y.shape[0], dtype=y.dtype)
        for _ in range(self.n_iter):
            f = -eps * keops_lse_reduction(x, y, b_log + g / eps, eps)
            g = -eps * keops_lse_reduction(y, x, a_log + f / eps, eps)
        return (a_log.exp() * f).sum() + (b_log.exp() * g).sum()

rng = np.random.RandomState(0)
x = torch.from_numpy(rng.rand(500, 3))          # numpy float64 point clouds
y = torch.from_numpy(rng.rand(600, 3) + 0.2)
loss = SamplesLoss("sinkhorn", p=2, blur=0.05, backend="online")
'''
CELL = '''
L = loss(x, y)
'''
EXPECT_ERROR = ("expected scalar type", "Expected out tensor to have dtype", "same dtype")
CULPRITS = ["x", "y"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.float()
y = y.float()
'''
REFERENCE_EDIT = None
CLEAN = False
