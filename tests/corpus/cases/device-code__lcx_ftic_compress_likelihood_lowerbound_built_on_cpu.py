"""FTIC eval.py --cuda --real: `_likelihood` builds a fresh CompressAI LowerBound on the CPU inside compress.

Source: https://github.com/qingshi9974/ICLR2024-FTIC/issues/4
`python eval.py --data ./kodak --checkpoint ./ckpt_0483.pth --cuda --real` fails in
`net.compress(x_padded)` -> `self._likelihood(samples, scale, means=mu + minmax)` ->
`scales = lower_bound(scales)` -> compressai `LowerBoundFunction.apply(x, self.bound)`: the method
makes `lower_bound = LowerBound(self.lower_bound)` on every call, a new module whose `bound` buffer
is on the CPU while the scales come from the cuda hyper-decoder. The repo's fix moves the bound:
`lower_bound.bound = lower_bound.bound.to(inputs.device)`. Stand-in: compressai's LowerBound and a
FLIC-shaped model reduced to a hyper-synthesis and the pmf of the symbol range; the per-element
indexing `scale[0][c_idx][h_idx][w_idx]` is dropped (the simulator cannot index fake cuda tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class LowerBoundFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_, bound):
        ctx.save_for_backward(input_, bound)
        return torch.max(input_, bound)

class LowerBound(nn.Module):
    def __init__(self, bound):
        super().__init__()
        self.register_buffer("bound", torch.Tensor([float(bound)]))

    @torch.jit.unused
    def lower_bound(self, x):
        return LowerBoundFunction.apply(x, self.bound)

    def forward(self, x):
        return self.lower_bound(x)

class FLIC(nn.Module):
    def __init__(self, M=16):
        super().__init__()
        self.lower_bound = 0.11
        self.h_s = nn.Sequential(nn.ConvTranspose2d(8, M * 2, 2, stride=2), nn.ReLU())
        self.g_a = nn.Conv2d(3, M, 4, stride=4)
        self.h_a = nn.Conv2d(M, 8, 2, stride=2)

    def _likelihood(self, inputs, scales, means=None):
        half = float(0.5)
        values = inputs - means if means is not None else inputs
        lower_bound = LowerBound(self.lower_bound)
        scales = lower_bound(scales)
        values = torch.abs(values)
        upper = self._standardized_cumulative((half - values) / scales)
        lower = self._standardized_cumulative((-half - values) / scales)
        return upper - lower

    def _standardized_cumulative(self, inputs):
        return float(0.5) * torch.erfc(float(-(2 ** -0.5)) * inputs)

    def compress(self, x):
        y = self.g_a(x)
        z_hat = torch.round(self.h_a(y))
        scale, mu = self.h_s(z_hat).chunk(2, 1)
        minmax = 8
        samples = torch.round(y) - mu
        pmf = self._likelihood(samples, scale, means=mu + minmax)
        return {"pmf": pmf, "minmax": minmax}

device = "cuda:0"          # args.cuda
net = FLIC().to(device).eval()
x_padded = torch.rand(1, 3, 64, 64, device=device)
'''
CELL = '''
out_enc = net.compress(x_padded)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lower_bound"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("lower_bound = LowerBound(self.lower_bound)",
                  "lower_bound = LowerBound(self.lower_bound).to(inputs.device)")
CLEAN = False
