"""lpips-pytorch `LPIPS` moved to cuda:0: the backbone's `mean`/`std` are registered buffers and follow `.to()`.

Source: https://github.com/S-aiueo32/lpips-pytorch/issues/1
A user suspected that CUDA inputs would fail because "the Basemodel's mean and std are not set to the
same device of the input tensor"; the author answered that submodules follow the root module and that
mean and std "are defined as buffer", so they track the device. Look-alike: normalisation constants
built with `torch.Tensor(...)` on the CPU in `__init__`, a perceptual metric called on GPU images.
Stand-in: `BaseNet.z_score` and the LPIPS forward (normalise, compare features, linear layers) as in the
repo, with a one-conv feature stage in place of AlexNet and no pretrained weights.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def normalize_activation(x, eps=1e-10):
    norm_factor = torch.sqrt(torch.sum(x ** 2, dim=1, keepdim=True))
    return x / (norm_factor + eps)

class BaseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('mean', torch.Tensor([-.030, -.088, -.188])[None, :, None, None])
        self.register_buffer('std', torch.Tensor([.458, .448, .450])[None, :, None, None])
        self.layers = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.target_layers = [1]
        self.n_channels_list = [8]

    def z_score(self, x):
        return (x - self.mean) / self.std

    def forward(self, x):
        x = self.z_score(x)
        output = []
        for i, (_, layer) in enumerate(self.layers._modules.items(), 1):
            x = layer(x)
            if i in self.target_layers:
                output.append(normalize_activation(x))
        return output

class LinLayers(nn.ModuleList):
    def __init__(self, n_channels_list):
        super().__init__([nn.Sequential(nn.Identity(), nn.Conv2d(nc, 1, 1, 1, 0, bias=False)) for nc in n_channels_list])
        for param in self.parameters():
            param.requires_grad = False

class LPIPS(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = BaseNet()
        self.lin = LinLayers(self.net.n_channels_list)

    def forward(self, x, y):
        feat_x, feat_y = self.net(x), self.net(y)
        diff = [(fx - fy) ** 2 for fx, fy in zip(feat_x, feat_y)]
        res = [l(d).mean((2, 3), True) for d, l in zip(diff, self.lin)]
        return torch.sum(torch.cat(res, 0), 0, True)

device = torch.device('cuda:0')
criterion = LPIPS().to(device)
x = torch.rand(1, 3, 32, 32, device=device) * 2 - 1
y = torch.rand(1, 3, 32, 32, device=device) * 2 - 1
'''
CELL = '''
with torch.no_grad():
    loss = criterion(x, y)
print(loss.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
