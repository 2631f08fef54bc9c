"""deepinv DRUNet denoiser: the noise-level map is allocated as a CPU FloatTensor, filled with sigma and moved to `x.device`.

Source: https://github.com/deepinv/deepinv/blob/main/deepinv/models/drunet.py
`DRUNet.forward(x, sigma)` with a float sigma builds `noise_level_map = torch.FloatTensor(x.size(0),
1, x.size(2), x.size(3)).fill_(sigma).to(x.device)` and concatenates it to the noisy image before the
U-Net; used as the plug-and-play prior in deblurring on the GPU. Look-alike: a tensor created on the
CPU inside forward beside a cuda model, moved before use. Stand-in: DRUNet reduced to head, one
residual block and tail.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ResBlock(nn.Module):
    def __init__(self, nc=16):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(nc, nc, 3, padding=1, bias=False), nn.ReLU(inplace=True),
                                  nn.Conv2d(nc, nc, 3, padding=1, bias=False))
    def forward(self, x):
        return x + self.body(x)

class DRUNet(nn.Module):
    def __init__(self, in_channels=3, out_channels=3, nc=16, device=None):
        super().__init__()
        self.m_head = nn.Conv2d(in_channels + 1, nc, 3, padding=1, bias=False)
        self.m_body = ResBlock(nc)
        self.m_tail = nn.Conv2d(nc, out_channels, 3, padding=1, bias=False)
        if device is not None:
            self.to(device)

    def forward(self, x, sigma):
        if isinstance(sigma, torch.Tensor):
            noise_level_map = sigma.view(x.size(0), 1, 1, 1).expand(-1, 1, x.size(2), x.size(3))
        else:
            noise_level_map = torch.FloatTensor(x.size(0), 1, x.size(2), x.size(3)).fill_(sigma).to(x.device)
        x = torch.cat((x, noise_level_map), 1)
        return self.m_tail(self.m_body(self.m_head(x)))

device = "cuda:0"
denoiser = DRUNet(device=device)
y = torch.rand(1, 3, 32, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    x_hat = denoiser(y, 0.05)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
