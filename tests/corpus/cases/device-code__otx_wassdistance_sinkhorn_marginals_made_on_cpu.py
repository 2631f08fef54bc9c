"""`SinkhornDistance` layer on GPU point clouds: the uniform marginals `mu`/`nu` are created on the CPU.

Source: https://github.com/dfdazac/wassdistance/pull/3
"Added device option to Wasserstein": `SinkhornDistance.forward` built both marginals with
`torch.empty(batch_size, x_points, dtype=torch.float, requires_grad=False).fill_(1.0 / x_points)`, so on
GPU inputs the first log-domain update `torch.log(mu+1e-8) - torch.logsumexp(self.M(C, u, v), dim=-1)`
mixed CPU and CUDA tensors. The PR added a `device` argument to the constructor; the maintainer asked
instead to take `device = x.device` in `forward`, which the repository now does. Stand-in: the layer as it
was, minus the early-stop test on `err.item()` (the simulation has no values).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class SinkhornDistance(nn.Module):
    def __init__(self, eps, max_iter, reduction='none'):
        super(SinkhornDistance, self).__init__()
        self.eps = eps
        self.max_iter = max_iter
        self.reduction = reduction

    def forward(self, x, y):
        C = self._cost_matrix(x, y)
        x_points = x.shape[-2]
        y_points = y.shape[-2]
        if x.dim() == 2:
            batch_size = 1
        else:
            batch_size = x.shape[0]

        # both marginals are fixed with equal weights
        mu = torch.empty(batch_size, x_points, dtype=torch.float,
                         requires_grad=False).fill_(1.0 / x_points).squeeze()
        nu = torch.empty(batch_size, y_points, dtype=torch.float,
                         requires_grad=False).fill_(1.0 / y_points).squeeze()

        u = torch.zeros_like(mu)
        v = torch.zeros_like(nu)
        for i in range(self.max_iter):
            u = self.eps * (torch.log(mu+1e-8) - torch.logsumexp(self.M(C, u, v), dim=-1)) + u
            v = self.eps * (torch.log(nu+1e-8) - torch.logsumexp(self.M(C, u, v).transpose(-2, -1), dim=-1)) + v

        pi = torch.exp(self.M(C, u, v))
        cost = torch.sum(pi * C, dim=(-2, -1))
        if self.reduction == 'mean':
            cost = cost.mean()
        elif self.reduction == 'sum':
            cost = cost.sum()
        return cost, pi, C

    def M(self, C, u, v):
        return (-C + u.unsqueeze(-1) + v.unsqueeze(-2)) / self.eps

    @staticmethod
    def _cost_matrix(x, y, p=2):
        x_col = x.unsqueeze(-2)
        y_lin = y.unsqueeze(-3)
        C = torch.sum((torch.abs(x_col - y_lin)) ** p, -1)
        return C

device = torch.device("cuda:0")
sinkhorn = SinkhornDistance(eps=0.1, max_iter=20, reduction=None)
x = torch.randn(8, 30, 2).to(device)
y = torch.randn(8, 40, 2).to(device)
'''
CELL = '''
dist, P, C = sinkhorn(x, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mu"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        mu = torch.empty(batch_size, x_points, dtype=torch.float,
                         requires_grad=False).fill_(1.0 / x_points).squeeze()
        nu = torch.empty(batch_size, y_points, dtype=torch.float,
                         requires_grad=False).fill_(1.0 / y_points).squeeze()''',
                  '''        mu = torch.empty(batch_size, x_points, dtype=torch.float, device=x.device,
                         requires_grad=False).fill_(1.0 / x_points).squeeze()
        nu = torch.empty(batch_size, y_points, dtype=torch.float, device=x.device,
                         requires_grad=False).fill_(1.0 / y_points).squeeze()''')
CLEAN = False
