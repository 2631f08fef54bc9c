"""MASt3R bruteforce_reciprocal_nns: descriptors handed over on the CPU are moved to the matching device inside.

Source: https://github.com/naver/mast3r/blob/main/mast3r/fast_nn.py
Look-alike: the reciprocal nearest-neighbour matcher takes `A`, `B` as numpy arrays or tensors on any
device and starts with `A = A.to(device); B = B.to(device)`, so CPU-side descriptors (e.g. cached
after `.cpu()`) are matched on the GPU; with `dist='dot'` the similarity is `A @ B.T` and the argmax
runs there too, and the indices come back with `.cpu()`. Stand-ins: random unit descriptors; the final
`.numpy()` is dropped (simulation); the blocked branch is not taken (no `block_size`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch


@torch.no_grad()
def bruteforce_reciprocal_nns(A, B, device='cuda', block_size=None, dist='l2'):
    if isinstance(A, np.ndarray):
        A = torch.from_numpy(A).to(device)
    if isinstance(B, np.ndarray):
        B = torch.from_numpy(B).to(device)

    A = A.to(device)
    B = B.to(device)

    if dist == 'l2':
        dist_func = torch.cdist
        argmin = torch.min
    elif dist == 'dot':
        def dist_func(A, B):
            return A @ B.T

        def argmin(X, dim):
            sim, nn = torch.max(X, dim=dim)
            return sim.neg_(), nn
    else:
        raise ValueError(f'Unknown {dist=}')

    if block_size is None or len(A) * len(B) <= block_size**2:
        dists = dist_func(A, B)
        _, nn_A = argmin(dists, dim=1)
        _, nn_B = argmin(dists, dim=0)
    nn_A = nn_A.cpu()
    nn_B = nn_B.cpu()
    return nn_A, nn_B


device = 'cuda:0'
desc1 = torch.nn.functional.normalize(torch.randn(2000, 24), dim=-1)   # cached on the CPU
desc2 = torch.nn.functional.normalize(torch.randn(1800, 24), dim=-1)
'''
CELL = '''
nn_A, nn_B = bruteforce_reciprocal_nns(desc1, desc2, device=device, dist='dot')
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
