"""FrEIA `FixedLinearTransform` is built from a CPU matrix `M` and offset `b`, but registers them as buffers, so `inn.to("cuda")` carries them along.

Source: https://github.com/vislearn/FrEIA/blob/master/FrEIA/modules/fixed_transforms.py
`FixedLinearTransform(dims_in, M=..., b=...)` stores `M.t()`, `M.t().inverse()`, `b.unsqueeze(0)`
(or `torch.tensor(0.)` when `b` is None) and `torch.slogdet(M)[1]` with `register_buffer`, and
`forward` computes `x[0].mm(self.M) + self.b` and `self.logDetM.expand(batch)`. A whitening matrix
computed on the CPU from the training data and handed to the INN therefore follows the INN to the
GPU: CPU tensors passed into a module that then runs on cuda look like a device bug, but are not.
Stand-in: FrEIA's `FixedLinearTransform` verbatim; `SequenceINN` and a one-sided affine coupling
block reduced to what `forward` needs.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Union
import torch
from torch import nn

class InvertibleModule(nn.Module):
    def __init__(self, dims_in, dims_c=None):
        super().__init__()
        self.dims_in = list(dims_in)

class FixedLinearTransform(InvertibleModule):
    def __init__(self, dims_in, dims_c=None, M: torch.Tensor = None,
                 b: Union[None, torch.Tensor] = None):
        super().__init__(dims_in, dims_c)

        if M is None:
            raise ValueError("Need to specify the M argument, the matrix to be multiplied.")

        self.register_buffer("M", M.t())
        self.register_buffer("M_inv", M.t().inverse())

        if b is None:
            self.register_buffer("b", torch.tensor(0.))
        else:
            self.register_buffer("b", b.unsqueeze(0))

        self.register_buffer("logDetM", torch.slogdet(M)[1])

    def forward(self, x, rev=False, jac=True):
        j = self.logDetM.expand(x[0].shape[0])
        if not rev:
            out = x[0].mm(self.M) + self.b
            return (out,), j
        else:
            out = (x[0] - self.b).mm(self.M_inv)
            return (out,), -j

class AffineCouplingOneSided(InvertibleModule):
    def __init__(self, dims_in, dims_c=None, subnet_constructor=None):
        super().__init__(dims_in, dims_c)
        d = dims_in[0][0]
        self.split = d // 2
        self.subnet = subnet_constructor(self.split, 2 * (d - self.split))
    def forward(self, x, rev=False, jac=True):
        x1, x2 = torch.split(x[0], [self.split, x[0].shape[1] - self.split], dim=1)
        s, t = self.subnet(x1).chunk(2, dim=1)
        s = torch.tanh(s)
        return (torch.cat([x1, x2 * torch.exp(s) + t], dim=1),), s.sum(dim=1)

class SequenceINN(InvertibleModule):
    def __init__(self, *dims):
        super().__init__([dims])
        self.shapes = [tuple(dims)]
        self.module_list = nn.ModuleList()
    def append(self, module_class, **kwargs):
        self.module_list.append(module_class([self.shapes[-1]], **kwargs))
    def forward(self, x_or_z, c=None, rev=False, jac=True):
        x_or_z = (x_or_z,)
        log_det_jac = 0
        for module in self.module_list:
            x_or_z, j = module(x_or_z, jac=jac, rev=rev)
            log_det_jac = j + log_det_jac
        return x_or_z[0], log_det_jac

def subnet_fc(dims_in, dims_out):
    return nn.Sequential(nn.Linear(dims_in, 64), nn.ReLU(), nn.Linear(64, dims_out))

train_data = torch.randn(1000, 4) * torch.tensor([1.0, 2.0, 0.5, 3.0]) + 1.0
mean = train_data.mean(0)
centered = train_data - mean
cov = centered.T @ centered / (train_data.shape[0] - 1)
whiten = torch.linalg.inv(torch.linalg.cholesky(cov)).T

device = torch.device("cuda:0")
inn = SequenceINN(4)
inn.append(FixedLinearTransform, M=whiten, b=-mean @ whiten)
inn.append(AffineCouplingOneSided, subnet_constructor=subnet_fc)
inn.to(device)
x = torch.randn(64, 4).to(device)
'''
CELL = '''
z, log_jac_det = inn(x)
nll = 0.5 * torch.sum(z**2, 1) - log_jac_det
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
