"""SamLynnEvans Transformer: torchtext batches stay on the CPU while the numpy no-peak mask is sent to the GPU.

Source: https://github.com/SamLynnEvans/Transformer/issues/30
Training with a GPU (`opt.device == 0`) failed in `create_masks` at `trg_mask = trg_mask & np_mask`
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!". `nopeak_mask` builds the mask with `np.triu(np.ones((1, size, size)), k=1)`, converts it
with `torch.from_numpy` and moves it to cuda, but the torchtext iterator (built without a device:
"currently defaults to cpu") yields `batch.src` / `batch.trg` on the CPU. The answer that solved
it: pass the batch tensors to the GPU (`create_masks(src.cuda(), trg_input.cuda(), opt)`).
Stand-ins: a torchtext-like Batch object and the repo's Batch.py helpers.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch.autograd import Variable

def nopeak_mask(size, opt):
    np_mask = np.triu(np.ones((1, size, size)), k=1).astype('uint8')
    np_mask = Variable(torch.from_numpy(np_mask) == 0)
    if opt.device == 0:
        np_mask = np_mask.to("cuda:0")
    return np_mask

def create_masks(src, trg, opt):
    src_mask = (src != opt.src_pad).unsqueeze(-2)
    if trg is not None:
        trg_mask = (trg != opt.trg_pad).unsqueeze(-2)
        size = trg.size(1)
        np_mask = nopeak_mask(size, opt)
        trg_mask = trg_mask & np_mask
    else:
        trg_mask = None
    return src_mask, trg_mask

opt = SimpleNamespace(device=0, src_pad=1, trg_pad=1)
batch = SimpleNamespace(src=torch.randint(2, 50, (12, 4)),   # torchtext Batch: (seq_len, batch)
                        trg=torch.randint(2, 50, (10, 4)))
'''
CELL = '''
src = batch.src.transpose(0, 1)
trg = batch.trg.transpose(0, 1)
trg_input = trg[:, :-1]
src_mask, trg_mask = create_masks(src, trg_input, opt)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch.trg"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.src = batch.src.to("cuda:0")
batch.trg = batch.trg.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
