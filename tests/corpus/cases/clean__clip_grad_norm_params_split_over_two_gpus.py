"""Look-alike: gradient clipping over a model whose two layers live on two GPUs.

Source: https://github.com/pytorch/pytorch/issues/38605
"clip_grad_norm_ fails when parameters are on different devices (1.5 regression)": a module with
`layer1` on cuda:0 and `layer2` on cuda:1 (manual model parallelism) crashed in clip_grad_norm_.
Fixed in 1.5.1 (PR 38615): per-device norms are moved to one device before stacking and the clip
coefficient is copied back to each gradient's device. Parameters on two GPUs are deliberate here;
nothing to report. The gradients are what backward leaves (set directly: no autograd under the
simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn

class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Linear(100, 50).to("cuda:0")
        self.layer2 = torch.nn.Linear(50, 20).to("cuda:1")

    def forward(self, x):
        a = self.layer1(x)
        return self.layer2(a.to("cuda:1"))

m = MyModule()
x = torch.randn(32, 100).to("cuda:0")
with torch.no_grad():
    out = m(x)
for p in m.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
total_norm = torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
