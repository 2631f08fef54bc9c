"""CompressAI Inference Demo notebook: `net` is moved to cuda, the image tensor `x` is not.

Source: https://github.com/InterDigitalInc/CompressAI/pull/17
In `CompressAI Inference Demo.ipynb` the user set `device = 'cuda' if torch.cuda.is_available() else
'cpu'` and `net = bmshj2018_factorized(quality=2, pretrained=True).eval().to(device)`, but the
image `x = transforms.ToTensor()(img).unsqueeze(0)` stays on the CPU, so `net.forward(x)` fails on a
GPU machine. The PR's fix is `out_net = net.forward(x.to(device))` (the maintainers fixed the
notebooks). Stand-in: FactorizedPrior with conv g_a/g_s and an EntropyBottleneck reduced to its
medians/quantize step; the first mixed op in the simulator is the medians subtraction (on a GPU the
first conv already raises "Input type ... and weight type ... should be the same").
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class EntropyBottleneck(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.quantiles = nn.Parameter(torch.tensor([-10., 0., 10.]).repeat(channels, 1, 1))

    def _get_medians(self):
        return self.quantiles[:, :, 1:2].view(1, -1, 1, 1)

    def forward(self, x):
        medians = self._get_medians()
        outputs = torch.round(x - medians) + medians
        likelihood = torch.sigmoid(outputs + 0.5) - torch.sigmoid(outputs - 0.5)
        return outputs, likelihood

class FactorizedPrior(nn.Module):
    def __init__(self, N=16, M=24):
        super().__init__()
        self.entropy_bottleneck = EntropyBottleneck(M)
        self.g_a = nn.Sequential(nn.Conv2d(3, N, 5, stride=2, padding=2), nn.ReLU(),
                                 nn.Conv2d(N, M, 5, stride=2, padding=2))
        self.g_s = nn.Sequential(nn.ConvTranspose2d(M, N, 4, stride=2, padding=1), nn.ReLU(),
                                 nn.ConvTranspose2d(N, 3, 4, stride=2, padding=1))

    def forward(self, x):
        y = self.g_a(x)
        y_hat, y_likelihoods = self.entropy_bottleneck(y)
        x_hat = self.g_s(y_hat)
        return {"x_hat": x_hat, "likelihoods": {"y": y_likelihoods}}

def bmshj2018_factorized(quality, pretrained=False):
    return FactorizedPrior()

device = "cuda:0"     # 'cuda' if torch.cuda.is_available() else 'cpu'
net = bmshj2018_factorized(quality=2, pretrained=True).eval().to(device)

x = torch.rand(1, 3, 64, 64)          # transforms.ToTensor()(img).unsqueeze(0)
'''
CELL = '''
with torch.no_grad():
    out_net = net.forward(x)
out_net['x_hat'].clamp_(0, 1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
