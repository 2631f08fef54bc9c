"""hypnettorch getting-started: the hypernetwork `HMLP` stays on the CPU, so the main-network weights it generates meet a cuda input.

Source: https://github.com/chrhenning/hypnettorch/issues/2
With `device = 'cuda'`, the tutorial's main network (`no_weights=True`) and the data were moved to
the device but `hnet = HMLP(mnet.param_shapes, uncond_in_size=0, cond_in_size=8, layers=[100, 100],
num_cond_embs=2)` was not, so `W = hnet.forward(cond_id=[0, 1])` returns CPU tensors and
`mnet.forward(X, weights=W[0])` fails on the device mismatch between `X` and the generated weights.
The reporter's fix (adopted in the notebook): `HMLP(...).to(device)`. Stand-ins: `HMLP` (conditional
embeddings + MLP trunk + one output head per target tensor) and a weight-less `MLP` main net (the
tutorial's LeNet reduced to its linear layers).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class MLP(nn.Module):
    def __init__(self, n_in=784, n_out=10, hidden_layers=(100, 100), no_weights=True):
        super().__init__()
        dims = [n_in, *hidden_layers, n_out]
        self.param_shapes = []
        for a, b in zip(dims[:-1], dims[1:]):
            self.param_shapes += [[b, a], [b]]

    def forward(self, x, weights=None):
        h = x
        n = len(weights) // 2
        for i in range(n):
            h = F.linear(h, weights[2 * i], weights[2 * i + 1])
            if i < n - 1:
                h = torch.relu(h)
        return h

class HMLP(nn.Module):
    def __init__(self, target_shapes, uncond_in_size=0, cond_in_size=8, layers=(100, 100),
                 num_cond_embs=2):
        super().__init__()
        self.target_shapes = target_shapes
        self.conditional_params = nn.ParameterList(
            [nn.Parameter(torch.randn(cond_in_size)) for _ in range(num_cond_embs)])
        dims = [cond_in_size, *layers]
        self.trunk = nn.Sequential(*[m for a, b in zip(dims[:-1], dims[1:])
                                     for m in (nn.Linear(a, b), nn.ReLU())])
        self.heads = nn.ModuleList([nn.Linear(layers[-1], int(np.prod(s))) for s in target_shapes])

    def forward(self, cond_id=None):
        ids = cond_id if isinstance(cond_id, (list, tuple)) else [cond_id]
        cond_input = torch.stack([self.conditional_params[i] for i in ids])
        h = self.trunk(cond_input)
        out = [[head(h[b]).view(*s) for head, s in zip(self.heads, self.target_shapes)]
               for b in range(len(ids))]
        return out if isinstance(cond_id, (list, tuple)) else out[0]

device = 'cuda:0'            # 'cuda' if torch.cuda.is_available() else 'cpu'
mnet = MLP(n_in=784, n_out=10, hidden_layers=[100, 100], no_weights=True).to(device)
hnet = HMLP(mnet.param_shapes, uncond_in_size=0, cond_in_size=8, layers=[100, 100], num_cond_embs=2)
X = torch.randn(4, 784, device=device)      # mnist.input_to_torch_tensor(mnist_inps, device, mode='train')
'''
CELL = '''
W = hnet.forward(cond_id=[0, 1])
Y0 = mnet.forward(X, weights=W[0])
print('Predicted classes for condition 0: ', Y0.max(dim=1)[1])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["hnet"]
FIX = "namespace"
REFERENCE_FIX = '''
hnet.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
