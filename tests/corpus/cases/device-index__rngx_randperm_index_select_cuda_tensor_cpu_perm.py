"""Permuting a CUDA tensor along an axis with a `torch.randperm` index made on the CPU.

Source: https://github.com/pytorch/pytorch/issues/38197
"Why no `torch.randperm_like`?": the user wants to permute the elements of a tensor `a` (which may be
a CUDA tensor) along an axis with an index tensor from `randperm`. The answer in the thread:
`a.index_select(dim, permuted_idx)` does it, but "the 'permuted_idx' must [be] at the same device
with 'a', you can move it by calling `permuted_idx.to(a.device)`"; `torch.randperm(n)` without a
device is on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

a = torch.randn(8, 32, 16, device="cuda:0")
dim = 1
permuted_idx = torch.randperm(a.shape[dim])
'''
CELL = '''
shuffled = a.index_select(dim, permuted_idx)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["permuted_idx"]
FIX = "namespace"
REFERENCE_FIX = '''
permuted_idx = permuted_idx.to(a.device)
'''
REFERENCE_EDIT = None
CLEAN = False
