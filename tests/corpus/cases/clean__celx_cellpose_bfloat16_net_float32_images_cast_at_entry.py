"""Look-alike: Cellpose-SAM evaluated in bfloat16 (the default since the bfloat16 PR) on float32 images that are cast at the network's entry.

Source: https://github.com/MouseLand/cellpose/pull/1229
The PR made bfloat16 the default dtype of the CP-SAM network (`use_bfloat16=True`); images stay
float32 numpy arrays and the forward pass converts each batch to the network's dtype before the
patch embedding, and the outputs back to float32 for the flow dynamics. The namespace holds
float32 images beside a bfloat16 network by design: correct, no finding. Stand-in: a tiny
Transformer keeping the `dtype` attribute and the cast-in/cast-out forward; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, ps=8, dim=32, nout=3, dtype=torch.bfloat16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, ps, stride=ps)
        self.out = nn.Conv2d(dim, nout * ps * ps, 1)
        self.ps = ps
        self.dtype = dtype
        self.to(dtype)

    def forward(self, x):
        x = self.out(torch.relu(self.patch_embed(x)))
        return nn.functional.pixel_shuffle(x, self.ps), x.mean((2, 3))

def _forward(net, x):
    X = torch.from_numpy(x).to(device=torch.device("cpu"), dtype=net.dtype)
    net.eval()
    with torch.no_grad():
        y, style = net(X)[:2]
    return y.float().numpy(), style.float().numpy()

net = Transformer(dtype=torch.bfloat16)
imgs = np.random.default_rng(0).random((2, 3, 64, 64), dtype=np.float32)
'''
CELL = '''
y, style = _forward(net, imgs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
