"""PyKeOps symbolic formula with `Pm(sigma)` from a Python float: the parameter tensor lives on the CPU, the data on the GPU.

Source: https://github.com/getkeops/keops/issues/306
The user built a Gaussian-kernel reduction with `x, y = Vi(0, D), Vj(1, D)`, `sig = Pm(sigma)` (sigma = 2.0),
`K = (-(x.sqdist(y)) / (2 * sig ** 2)).exp()`, `MyRed_keops = K.sum_reduction(axis=1)` and called it on
GPU tensors `xt`, `yt`; it worked on the CPU but on the GPU failed with "At least two input variables have
different memory locations (Cpu/Gpu)". The user found the cause: the float parameter is turned into a
CPU tensor; `sigma = torch.tensor(sigma, device=torchdevice)` before building the formula removes the
error. Stand-ins: a tiny symbolic Vi/Vj/Pm formula tree evaluated with torch broadcasting (KeOps' own
location check becomes torch's device check).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

class Formula:
    def __init__(self, fn):
        self.fn = fn
    def __call__(self, args):
        return self.fn(args)
    def _lift(self, other):
        return other if isinstance(other, Formula) else Formula(lambda args, c=other: c)
    def __neg__(self):
        return Formula(lambda args: -self(args))
    def __add__(self, other):
        o = self._lift(other); return Formula(lambda args: self(args) + o(args))
    def __mul__(self, other):
        o = self._lift(other); return Formula(lambda args: self(args) * o(args))
    __rmul__ = __mul__
    def __truediv__(self, other):
        o = self._lift(other); return Formula(lambda args: self(args) / o(args))
    def __pow__(self, k):
        return Formula(lambda args: self(args) ** k)
    def exp(self):
        return Formula(lambda args: torch.exp(self(args)))
    def sqdist(self, other):
        return Formula(lambda args: ((self(args) - other(args)) ** 2).sum(-1, keepdim=True))
    def sum_reduction(self, axis):
        def reduce(*tensors):
            return self(tensors).sum(axis)
        return reduce

def Vi(index, dim):
    return Formula(lambda args: args[index].unsqueeze(1))      # (M, 1, D)

def Vj(index, dim):
    return Formula(lambda args: args[index].unsqueeze(0))      # (1, N, D)

class Pm(Formula):
    def __init__(self, value):
        if not torch.is_tensor(value):
            value = torch.tensor([float(value)])                # KeOps: a parameter of dimension 1
        self.tensor = value
        super().__init__(lambda args: self.tensor)

torchdevice = torch.device("cuda:0")
sigma = 2.0   # Gaussian kernel scale
D = 3
x, y = Vi(0, D), Vj(1, D)
sig = Pm(sigma)
K = (-(x.sqdist(y)) / (2 * sig ** 2)).exp()
MyRed_keops = K.sum_reduction(axis=1)

M, N = 100, 1000
xt = torch.randn(M, D).to(device=torchdevice)
yt = torch.randn(N, D).to(device=torchdevice)
'''
CELL = '''
res = MyRed_keops(xt, yt)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sig"]
FIX = "namespace"
REFERENCE_FIX = '''
sig.tensor = sig.tensor.to(torchdevice)
'''
REFERENCE_EDIT = None
CLEAN = False
