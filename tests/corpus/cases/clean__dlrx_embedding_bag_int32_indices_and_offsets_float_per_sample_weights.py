"""Look-alike: an `nn.EmbeddingBag` fed int32 indices and int32 offsets with float32 per-sample weights, as supported since int32 index support landed.

Source: https://github.com/pytorch/pytorch/pull/46758
"Support int32 indices and offsets in nn.EmbeddingBag": indices and offsets may be int32 (smaller to
ship to accelerators) provided both have the same type; the reviewers asked for the docs to say so.
A DLRM-style sparse lookup that keeps its jagged indices/offsets in int32 and weights each id with a
float32 `per_sample_weights` (mode="sum") mixes three dtypes on purpose and runs; the pooled vectors are
concatenated with the float32 dense MLP output.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

emb_l = nn.ModuleList([nn.EmbeddingBag(n, 8, mode="sum") for n in (100, 50, 30)])
bot_l = nn.Sequential(nn.Linear(13, 8), nn.ReLU())
dense_x = torch.rand(4, 13)
lS_i = [torch.tensor([1, 5, 7, 2, 9, 3], dtype=torch.int32),
        torch.tensor([4, 4, 0, 1], dtype=torch.int32),
        torch.tensor([2, 3, 5, 7, 11], dtype=torch.int32)]
lS_o = [torch.tensor([0, 2, 3, 5], dtype=torch.int32),
        torch.tensor([0, 1, 2, 3], dtype=torch.int32),
        torch.tensor([0, 1, 3, 4], dtype=torch.int32)]
lS_w = [torch.rand(len(i)) for i in lS_i]
'''
CELL = '''
x = bot_l(dense_x)
ly = [E(i, o, per_sample_weights=w) for E, i, o, w in zip(emb_l, lS_i, lS_o, lS_w)]
z = torch.cat([x] + ly, dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
