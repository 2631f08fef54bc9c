"""Farthest point sampling with a batch vector built as float: the op needs int64 batch indices.

Source: https://github.com/rusty1s/pytorch_cluster/issues/41
`batch = torch.tensor(np.zeros(len(target)), dtype=torch.float)` and `target_tensor =
torch.tensor(target, dtype=torch.float)`, then `fps(target_tensor, batch, ratio=0.5,
random_start=False)` raised "expected scalar type Long but found Float": the batch assignment vector
is an index (which example each point belongs to) and must be int64. Stand-in: `fps` in Python, its
per-example point counts computed by a scatter over `batch` as the C++ op does.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch

def fps(src, batch=None, ratio=0.5, random_start=True):
    """Stand-in for torch_cluster.fps (per-example farthest point sampling)."""
    if batch is None:
        batch = src.new_zeros(src.size(0), dtype=torch.long)
    batch_size = int(batch.max()) + 1
    deg = torch.zeros(batch_size, dtype=torch.long).scatter_add_(0, batch, torch.ones_like(batch, dtype=torch.long))
    ptr = torch.cat([deg.new_zeros(1), deg.cumsum(0)])
    out = []
    for b in range(batch_size):
        pts = src[ptr[b]:ptr[b + 1]]
        n_sample = int(np.ceil(ratio * pts.size(0)))
        idx = [0]
        dist = (pts - pts[0]).pow(2).sum(-1)
        for _ in range(n_sample - 1):
            nxt = int(dist.argmax())
            idx.append(nxt)
            dist = torch.minimum(dist, (pts - pts[nxt]).pow(2).sum(-1))
        out.append(torch.tensor(idx) + ptr[b])
    return torch.cat(out)

target = np.random.default_rng(0).normal(size=(64, 3))
batch = torch.tensor(np.zeros(len(target)), dtype=torch.float)
target_tensor = torch.tensor(target, dtype=torch.float)
'''
CELL = '''
indices = fps(target_tensor, batch, ratio=0.5, random_start=False)
'''
EXPECT_ERROR = ("Expected dtype int32/int64 for index", "Expected dtype int64 for index",
                "expected scalar type Long but found Float")
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.long()
'''
REFERENCE_EDIT = None
CLEAN = False
