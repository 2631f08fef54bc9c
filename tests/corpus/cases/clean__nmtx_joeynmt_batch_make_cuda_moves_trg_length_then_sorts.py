"""JoeyNMT batch on the GPU: the collate function builds CPU tensors and `Batch._make_cuda` moves every one of them, `trg_length` included, before sorting by source length.

Source: https://github.com/joeynmt/joeynmt/blob/16d6b681ea66a567772a2dc7ace289bec55d92da/joeynmt/batch.py
Look-alike: `src`, `src_length`, `trg` and `trg_length` are made on the CPU in the user's cells and
handed to `Batch(..., device=device)`; since PR #199 `_make_cuda` also moves `trg_length`, so
`sort_by_src_length` reorders every field with a GPU `perm_index` on the GPU. The CPU originals left in
the namespace are never used by the cell. Stand-in: joeynmt's `Batch` with its `[perm_index]` lookups
written `index_select` (the CPU simulator checks no device on indexing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import Tensor

PAD_ID = 1

class Batch:
    """Stand-in for joeynmt.batch.Batch (joeynmt 2.0, after PR #199)."""

    def __init__(self, src, src_length, trg, trg_length, device, pad_index=PAD_ID,
                 has_trg=True, is_train=True):
        self.src = src
        self.src_length = src_length
        self.src_mask = (self.src != pad_index).unsqueeze(1)
        self.trg_input = None
        self.trg = None
        self.trg_mask = None
        self.trg_length = None
        self.nseqs = self.src.size(0)
        self.has_trg = has_trg
        self.is_train = is_train
        if self.has_trg:
            self.trg_input = trg[:, :-1]
            self.trg_length = trg_length - 1
            self.trg = trg[:, 1:]
            self.trg_mask = (self.trg != pad_index).unsqueeze(1)
        if device.type == "cuda":
            self._make_cuda(device)

    def _make_cuda(self, device):
        """Move the batch to GPU"""
        self.src = self.src.to(device)
        self.src_length = self.src_length.to(device)
        self.src_mask = self.src_mask.to(device)
        if self.has_trg:
            self.trg_input = self.trg_input.to(device)
            self.trg = self.trg.to(device)
            self.trg_length = self.trg_length.to(device)
            self.trg_mask = self.trg_mask.to(device)

    def sort_by_src_length(self):
        """Sort by src length (descending) and return index to revert sort"""
        _, perm_index = self.src_length.sort(0, descending=True)
        sorted_src_length = self.src_length.index_select(0, perm_index)   # self.src_length[perm_index]
        sorted_src = self.src.index_select(0, perm_index)
        sorted_src_mask = self.src_mask.index_select(0, perm_index)
        if self.has_trg:
            sorted_trg_input = self.trg_input.index_select(0, perm_index)
            sorted_trg_length = self.trg_length.index_select(0, perm_index)
            sorted_trg_mask = self.trg_mask.index_select(0, perm_index)
            sorted_trg = self.trg.index_select(0, perm_index)
        self.src = sorted_src
        self.src_length = sorted_src_length
        self.src_mask = sorted_src_mask
        if self.has_trg:
            self.trg_input = sorted_trg_input
            self.trg_mask = sorted_trg_mask
            self.trg_length = sorted_trg_length
            self.trg = sorted_trg
        return perm_index

# what joeynmt's collate_fn builds for the reverse task (3 sentences), use_cuda=True
device = torch.device("cuda:0")
src = torch.tensor([[5, 9, 7, 3, 1], [8, 4, 6, 2, 3], [6, 3, 1, 1, 1]])
src_length = torch.tensor([4, 5, 2])
trg = torch.tensor([[2, 7, 9, 5, 3, 1], [2, 6, 4, 8, 2, 3], [2, 6, 3, 1, 1, 1]])
trg_length = torch.tensor([5, 6, 3])
batch = Batch(src=src, src_length=src_length, trg=trg, trg_length=trg_length,
              device=device, pad_index=PAD_ID, is_train=True)
'''
CELL = '''
batch.sort_by_src_length()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
