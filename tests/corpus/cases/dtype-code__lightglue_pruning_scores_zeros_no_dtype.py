"""LightGlue in fp16 with point pruning: the remapped score tensors are made with torch.zeros and no dtype.

Source: https://github.com/cvg/LightGlue/issues/186
`LightGlue(features="aliked", width_confidence=0.99).eval().to(dev).half()` raised "Index put
requires the source and destination dtypes match, got Float for the destination and Half for the
source." The reporter traced it: in the `if do_point_pruning:` block `mscores0_ =
torch.zeros((b, m), device=mscores0.device)` defaults to float32 while the half model's
`mscores0` is float16 (the neighbouring `m0_` is made with `dtype=m0.dtype`). Stand-in: a matcher
with the same pruning remap; dense scores from a small projection.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class LightGlue(nn.Module):
    def __init__(self, dim=16, width_confidence=0.99):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.width_confidence = width_confidence

    def forward(self, desc0, desc1):
        b, m, _ = desc0.shape
        n = desc1.shape[1]
        do_point_pruning = self.width_confidence > 0
        # keypoints kept after pruning (every other one here)
        ind0 = torch.arange(0, m, 2, device=desc0.device)
        ind1 = torch.arange(0, n, 2, device=desc1.device)
        d0, d1 = self.proj(desc0[:, ind0]), self.proj(desc1[:, ind1])
        sim = torch.einsum("bmd,bnd->bmn", d0, d1)
        mscores0, m0 = sim.softmax(-1).max(-1)
        mscores1, m1 = sim.softmax(-2).max(-2)
        if do_point_pruning:
            m0_ = torch.full((b, m), -1, device=m0.device, dtype=m0.dtype)
            m1_ = torch.full((b, n), -1, device=m1.device, dtype=m1.dtype)
            m0_[:, ind0] = torch.where(m0 == -1, -1, ind1.gather(0, m0.reshape(-1)).reshape(m0.shape))
            m1_[:, ind1] = torch.where(m1 == -1, -1, ind0.gather(0, m1.reshape(-1)).reshape(m1.shape))
            mscores0_ = torch.zeros((b, m), device=mscores0.device)
            mscores1_ = torch.zeros((b, n), device=mscores1.device)
            mscores0_[:, ind0] = mscores0
            mscores1_[:, ind1] = mscores1
            m0, m1, mscores0, mscores1 = m0_, m1_, mscores0_, mscores1_
        return {"matches0": m0, "matches1": m1, "matching_scores0": mscores0, "matching_scores1": mscores1}

matcher = LightGlue().eval().half()
feats0 = {"descriptors": torch.randn(1, 12, 16).half()}
feats1 = {"descriptors": torch.randn(1, 10, 16).half()}
'''
CELL = '''
with torch.no_grad():
    matches = matcher(feats0["descriptors"], feats1["descriptors"])
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["matcher"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            mscores0_ = torch.zeros((b, m), device=mscores0.device)
            mscores1_ = torch.zeros((b, n), device=mscores1.device)""",
    """            mscores0_ = torch.zeros((b, m), device=mscores0.device, dtype=mscores0.dtype)
            mscores1_ = torch.zeros((b, n), device=mscores1.device, dtype=mscores1.dtype)""",
)
CLEAN = False
