"""Look-alike: an fp16 matcher whose match indices are int64 and whose scores follow the model dtype.

Source: https://github.com/cvg/LightGlue/issues/186
The report on LightGlue's fp16 point-pruning crash points out that the neighbouring index
tensors are right: `m0_ = torch.full((b, m), -1, device=m0.device, dtype=m0.dtype)` is int64 on
purpose inside a `.half()` model, and index-putting the int64 matches into it is fine. This is the
remap written that way throughout (scores created with `dtype=mscores0.dtype`): int64 and float16
tensors side by side, nothing to report.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Matcher(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, desc0, desc1):
        b, m, _ = desc0.shape
        ind0 = torch.arange(0, m, 2, device=desc0.device)
        sim = torch.einsum("bmd,bnd->bmn", self.proj(desc0[:, ind0]), self.proj(desc1))
        mscores0, m0 = sim.softmax(-1).max(-1)
        m0_ = torch.full((b, m), -1, device=m0.device, dtype=m0.dtype)
        mscores0_ = torch.zeros((b, m), device=mscores0.device, dtype=mscores0.dtype)
        m0_[:, ind0] = m0
        mscores0_[:, ind0] = mscores0
        return m0_, mscores0_

matcher = Matcher().eval().half()
desc0 = torch.randn(1, 12, 16).half()
desc1 = torch.randn(1, 10, 16).half()
'''
CELL = '''
with torch.no_grad():
    matches0, scores0 = matcher(desc0, desc1)
valid = matches0 > -1
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
