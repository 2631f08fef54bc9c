"""SpikingJelly's SpikingVanillaRNNCell after `.double()`: the default hidden state is created with `dtype=torch.float`.

Source: https://github.com/fangwei123456/spikingjelly/issues/656
"SpikingVanillaRNNCell/SpikingGRUCell/SpikingLSTMCell default hidden states use float32 and crash
after model.double()": converted with `.double()` and called without a hidden state, the cell builds
`h = torch.zeros(size=[x.shape[0], self.hidden_size], dtype=torch.float, device=x.device)` and feeds
it to the float64 `linear_hh`; passing a float64 `h` explicitly avoids the crash. Stand-in: the
cell as in `spikingjelly/activation_based/rnn.py`, with the Erf surrogate reduced to a Heaviside
step whose backward is the Erf derivative.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn

class _ErfHeaviside(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (ctx.alpha / math.sqrt(math.pi)) * torch.exp(-(ctx.alpha * x) ** 2), None

class Erf(nn.Module):
    def __init__(self, alpha=2.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return _ErfHeaviside.apply(x, self.alpha)

class SpikingRNNCellBase(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias=True):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias

    def reset_parameters(self):
        sqrt_k = math.sqrt(1 / self.hidden_size)
        for param in self.parameters():
            nn.init.uniform_(param, -sqrt_k, sqrt_k)

class SpikingVanillaRNNCell(SpikingRNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias=True, surrogate_function=Erf()):
        super().__init__(input_size, hidden_size, bias)
        self.linear_ih = nn.Linear(input_size, hidden_size, bias=bias)
        self.linear_hh = nn.Linear(hidden_size, hidden_size, bias=bias)
        self.surrogate_function = surrogate_function
        self.reset_parameters()

    def forward(self, x: torch.Tensor, h=None):
        if h is None:
            h = torch.zeros(size=[x.shape[0], self.hidden_size], dtype=torch.float, device=x.device)
        return self.surrogate_function(self.linear_ih(x) + self.linear_hh(h))

cell = SpikingVanillaRNNCell(input_size=4, hidden_size=8).double()
x = torch.randn(3, 4, dtype=torch.float64)
'''
CELL = '''
h1 = cell(x)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["cell"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "h = torch.zeros(size=[x.shape[0], self.hidden_size], dtype=torch.float, device=x.device)",
    "h = torch.zeros(size=[x.shape[0], self.hidden_size], dtype=x.dtype, device=x.device)",
)
CLEAN = False
