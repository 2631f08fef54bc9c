"""Look-alike: cellpose `run_net` on a GPU: image tiles stay numpy on the CPU and each batch is moved to the network's device.

Source: https://github.com/MouseLand/cellpose/blob/main/cellpose/core.py
cellpose keeps the normalised image and its tiles as numpy float32 arrays; `_forward` /
`run_net` convert each batch with `torch.from_numpy(x).to(device)` (`_to_device`), run the
network that `CellposeModel` put on `self.device`, and bring the flows back. The namespace holds
CPU arrays beside a CPnet on cuda:0: correct, no finding. Stand-in: a tiny CPnet in eval mode
and the batch loop; the copy back to numpy is left out (fake cuda cannot copy back).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class CPnet(nn.Module):
    def __init__(self, nchan=2, nbase=16, nout=3):
        super().__init__()
        self.bn = nn.BatchNorm2d(nchan, eps=1e-5, momentum=0.05)
        self.conv = nn.Conv2d(nchan, nbase, 3, padding=1)
        self.out = nn.Conv2d(nbase, nout, 1)
        self.style = nn.Linear(nbase, nbase)

    def forward(self, x):
        h = torch.relu(self.conv(torch.relu(self.bn(x))))
        style = self.style(h.mean((2, 3)))
        return self.out(h), style

def _to_device(x, device):
    return torch.from_numpy(x).to(device)

def run_net(net, imgs, batch_size=4):
    device = next(net.parameters()).device
    outs = []
    for j in range(0, imgs.shape[0], batch_size):
        X = _to_device(imgs[j:j + batch_size], device)
        with torch.no_grad():
            y, style = net(X)
        outs.append(y)
    return outs

device = torch.device("cuda:0")
net = CPnet()
net.to(device)
net.eval()
tiles = np.random.default_rng(0).random((6, 2, 32, 32), dtype=np.float32)   # normalised tiles
'''
CELL = '''
flows = run_net(net, tiles, batch_size=4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
