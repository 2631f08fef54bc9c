"""A helper moves the no-peek mask to the GPU but throws the result away (`np_mask.cuda()`).

Source: https://github.com/SamLynnEvans/Transformer/issues/27
create_masks() builds the decoder's no-peek mask with numpy (CPU) and calls `np_mask.cuda()`
without assigning it, so `trg_mask + np_mask` fails with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The stand-in writes the move as
`.to(trg.device)`, the same discarded result.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

def nopeak_mask(size):
    np_mask = np.triu(np.ones((1, size, size)), k=1).astype("uint8")
    return torch.from_numpy(np_mask) == 0

def create_masks(src, trg, src_pad=0, trg_pad=0):
    src_mask = (src != src_pad).unsqueeze(-2)
    trg_mask = (trg != trg_pad).unsqueeze(-2)
    np_mask = nopeak_mask(trg.shape[1])
    if trg.is_cuda:
        np_mask.to(trg.device)
    trg_mask = trg_mask & np_mask
    return src_mask, trg_mask

src = torch.randint(1, 100, (2, 9)).to("cuda:0")
trg = torch.randint(1, 100, (2, 7)).to("cuda:0")
'''
CELL = '''
src_mask, trg_mask = create_masks(src, trg)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["create_masks"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        np_mask.to(trg.device)", "        np_mask = np_mask.to(trg.device)")
CLEAN = False
