"""lpips.LPIPS moved with `.to(device)`: ScalingLayer shift/scale are buffers and follow the network to cuda.

Source: https://github.com/richzhang/PerceptualSimilarity/blob/master/lpips/lpips.py
The LPIPS network keeps the ImageNet-style input shift/scale as `register_buffer` tensors in
`ScalingLayer`, and the 1x1 `NetLinLayer` heads with Dropout; the README's usage moves the whole
metric (`loss_fn_alex.cuda()`) and feeds cuda images. Look-alike: normalisation constants built
with `torch.Tensor(...)` on the CPU inside `__init__` that do follow the module to the GPU.
Stand-in: LPIPS with two conv stages in place of AlexNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ScalingLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('shift', torch.Tensor([-.030, -.088, -.188])[None, :, None, None])
        self.register_buffer('scale', torch.Tensor([.458, .448, .450])[None, :, None, None])

    def forward(self, inp):
        return (inp - self.shift) / self.scale

def normalize_tensor(in_feat, eps=1e-10):
    norm_factor = torch.sqrt(torch.sum(in_feat ** 2, dim=1, keepdim=True))
    return in_feat / (norm_factor + eps)

class NetLinLayer(nn.Module):
    def __init__(self, chn_in, chn_out=1, use_dropout=False):
        super().__init__()
        layers = [nn.Dropout()] if use_dropout else []
        layers += [nn.Conv2d(chn_in, chn_out, 1, stride=1, padding=0, bias=False)]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)

class LPIPS(nn.Module):
    def __init__(self, net='alex', version='0.1'):
        super().__init__()
        self.version = version
        self.scaling_layer = ScalingLayer()
        self.slices = nn.ModuleList([nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU()),
                                     nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())])
        self.lins = nn.ModuleList([NetLinLayer(16, use_dropout=True), NetLinLayer(32, use_dropout=True)])

    def forward(self, in0, in1, normalize=False):
        if normalize:
            in0, in1 = 2 * in0 - 1, 2 * in1 - 1
        h0, h1 = self.scaling_layer(in0), self.scaling_layer(in1)
        val = 0
        for slice_, lin in zip(self.slices, self.lins):
            h0, h1 = slice_(h0), slice_(h1)
            diff = (normalize_tensor(h0) - normalize_tensor(h1)) ** 2
            val = val + lin(diff).mean([2, 3], keepdim=True)
        return val

device = "cuda:0"
loss_fn_alex = LPIPS(net='alex').eval().to(device)     # loss_fn_alex.cuda()
img0 = torch.rand(2, 3, 32, 32, device=device) * 2 - 1
img1 = torch.rand(2, 3, 32, 32, device=device) * 2 - 1
'''
CELL = '''
d = loss_fn_alex(img0, img1)
print(d.shape, d.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
