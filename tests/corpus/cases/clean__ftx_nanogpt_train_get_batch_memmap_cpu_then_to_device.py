"""nanoGPT `train.py` `get_batch`: batches are sliced out of a numpy memmap on the CPU and moved to the GPU inside the helper.

Source: https://github.com/karpathy/nanoGPT/blob/master/train.py
`x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])` builds
int64 CPU tensors next to a model on cuda; `get_batch` then does `x, y = x.to(device), y.to(device)`
(with `pin_memory()` / `non_blocking=True` on cuda), and the training loop prefetches the next
batch the same way. CPU-made data, int64 token ids from uint16 storage, and a GPU model: a
look-alike that runs. Stand-ins: the memmap is a small in-memory uint16 array; `pin_memory()` is
left out (it needs a CUDA runtime); the offsets `ix` come from numpy (the simulator cannot
iterate a tensor's values); the model is a bigram LM.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

block_size, batch_size = 8, 4
device = "cuda:0"
device_type = "cuda" if "cuda" in device else "cpu"
train_data = np.random.RandomState(0).randint(0, 65, size=2000).astype(np.uint16)  # np.memmap('train.bin')

def get_batch(split):
    data = train_data
    ix = np.random.randint(len(data) - block_size, size=(batch_size,))   # torch.randint(...) in nanoGPT
    x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])
    if device_type == "cuda":
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)   # x.pin_memory().to(...)
    else:
        x, y = x.to(device), y.to(device)
    return x, y

class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size=65):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets):
        logits = self.token_embedding_table(idx)
        B, T, C = logits.shape
        loss = F.cross_entropy(logits.view(B * T, C), targets.view(B * T))
        return logits, loss

model = BigramLanguageModel()
model.to(device)
X, Y = get_batch("train")      # fetch the very first batch
'''
CELL = '''
with torch.no_grad():
    for micro_step in range(2):
        logits, loss = model(X, Y)
        X, Y = get_batch("train")   # async prefetch the next batch
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
