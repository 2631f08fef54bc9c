"""Look-alike: a layer under `weight_norm` moved to the accelerator, its `weight` still on the CPU until the next call.

Source: https://github.com/pytorch/pytorch/issues/48898
`torch.nn.utils.weight_norm` keeps `weight` a plain attribute that a forward pre-hook makes
again from `weight_g` and `weight_v` before every call, so `Model().to(device)` leaves the old
`weight` behind. The report's first snippet, which calls the layer, "works": the hook makes the
weight on the GPU. (Only code that reads `layer.weight` without calling the layer fails.)
Registering `weight` as a buffer would put it in the state_dict. Nothing may be reported beyond
a note. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import warnings
import torch

warnings.filterwarnings("ignore", category=FutureWarning)  # the legacy weight_norm API

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(16, 16)])
        for i in range(len(self.layers)):
            self.layers[i] = torch.nn.utils.weight_norm(self.layers[i])

    def forward(self, x):
        layer = self.layers[0]
        return layer(x)

device = "meta"
m = Model().to(device)
input = torch.ones(5, 16, device=device)
'''
CELL = '''
with torch.no_grad():
    out = m(input)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
