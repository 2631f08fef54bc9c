"""CompressAI GDN moved to cuda: beta/gamma reparametrised through NonNegativeParametrizer with `pedestal` buffers and LowerBound.

Source: https://github.com/InterDigitalInc/CompressAI/blob/master/compressai/layers/gdn.py
`GDN.forward` computes `beta = self.beta_reparam(self.beta)` and `gamma = self.gamma_reparam(self.gamma)`;
`NonNegativeParametrizer` keeps `pedestal` as a registered buffer and a `LowerBound` module whose
`bound` is a buffer, so `model.to(device)` moves every constant; the normalisation is a 1x1
`F.conv2d(x ** 2, gamma, beta)`. Look-alike: scalar constants built as tensors in `__init__`,
used against cuda activations. Stand-in: GDN/IGDN inside a tiny analysis/synthesis pair.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LowerBound(nn.Module):
    def __init__(self, bound):
        super().__init__()
        self.register_buffer("bound", torch.Tensor([float(bound)]))

    def forward(self, x):
        return torch.max(x, self.bound)

class NonNegativeParametrizer(nn.Module):
    def __init__(self, minimum=0, reparam_offset=2 ** -18):
        super().__init__()
        self.minimum, self.reparam_offset = float(minimum), float(reparam_offset)
        pedestal = self.reparam_offset ** 2
        self.register_buffer("pedestal", torch.Tensor([pedestal]))
        bound = (self.minimum + self.reparam_offset ** 2) ** 0.5
        self.lower_bound = LowerBound(bound)

    def init(self, x):
        return torch.sqrt(torch.max(x + self.pedestal, self.pedestal))

    def forward(self, x):
        out = self.lower_bound(x)
        return out ** 2 - self.pedestal

class GDN(nn.Module):
    def __init__(self, in_channels, inverse=False, beta_min=1e-6, gamma_init=0.1):
        super().__init__()
        self.inverse = bool(inverse)
        self.beta_reparam = NonNegativeParametrizer(minimum=beta_min)
        self.beta = nn.Parameter(self.beta_reparam.init(torch.ones(in_channels)))
        self.gamma_reparam = NonNegativeParametrizer()
        self.gamma = nn.Parameter(self.gamma_reparam.init(gamma_init * torch.eye(in_channels)))

    def forward(self, x):
        _, C, _, _ = x.size()
        beta = self.beta_reparam(self.beta)
        gamma = self.gamma_reparam(self.gamma).reshape(C, C, 1, 1)
        norm = F.conv2d(x ** 2, gamma, beta)
        norm = torch.sqrt(norm) if self.inverse else torch.rsqrt(norm)
        return x * norm

net = nn.Sequential(nn.Conv2d(3, 16, 5, stride=2, padding=2), GDN(16),
                    nn.ConvTranspose2d(16, 16, 4, stride=2, padding=1), GDN(16, inverse=True),
                    nn.Conv2d(16, 3, 3, padding=1)).to("cuda:0")
x = torch.rand(1, 3, 32, 32, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    x_hat = net(x)
print(x_hat.shape, x_hat.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
