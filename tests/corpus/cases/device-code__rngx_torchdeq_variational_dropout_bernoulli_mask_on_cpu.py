"""torchdeq `VariationalDropout1d` on a CUDA input: the Bernoulli mask is sampled on a CPU `torch.zeros`.

Source: https://github.com/locuslab/torchdeq/issues/13
The reporter moved `drop = VariationalDropout1d(dropout=0.1).to(device)` to cuda:0, called `drop.train()`
and `y = drop(x)` on a CUDA input; `return mask * x` raised "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The mask is drawn as
`m = torch.zeros(B, L, 1).bernoulli_(1 - self.dropout)`, with no device, and the module has no
buffers, so `.to(device)` changes nothing. Fix from the report: create the zeros on `x.device`.
Stand-in: torchdeq's dropout module reduced to the token-first 1d branch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VariationalDropout1d(nn.Module):
    def __init__(self, dropout=0.5, token_first=True):
        super().__init__()
        self.dropout = dropout
        self.token_first = token_first

    def forward(self, x):
        if not self.training or self.dropout == 0.:
            return x
        if self.token_first:
            B, L, D = x.shape
            m = torch.zeros(B, L, 1).bernoulli_(1 - self.dropout)
        else:
            B, D, L = x.shape
            m = torch.zeros(B, 1, L).bernoulli_(1 - self.dropout)
        mask = m.requires_grad_(False) / (1 - self.dropout)
        return mask * x

device = torch.device("cuda:0")
drop = VariationalDropout1d(dropout=0.1).to(device)
drop.train()
x = torch.randn(2, 8, 16, device=device)
'''
CELL = '''
with torch.no_grad():
    y = drop(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["drop"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("m = torch.zeros(B, L, 1).bernoulli_(1 - self.dropout)",
                  "m = torch.zeros(B, L, 1, device=x.device).bernoulli_(1 - self.dropout)")
CLEAN = False
