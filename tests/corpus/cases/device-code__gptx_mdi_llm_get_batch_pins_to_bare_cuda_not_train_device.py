"""MDI-LLM (nanoGPT-based GPT-2 trainer) on `cuda:1`: `get_batch` sends the inputs to a hard-coded `"cuda"`, i.e. cuda:0.

Source: https://github.com/davmacario/MDI-LLM/issues/21
The maintainer reports that "when training on cuda:1, the program fails as there are some tensors
that get placed on cuda:0" and closes the issue with commit 0b8b204 ("correct device usage"):
`get_batch` in `src/GPT2/sub/data_loader.py` did `x.pin_memory().to("cuda", non_blocking=True)`
for the contexts (only the targets used `device`), so `x` landed on the current device, cuda:0,
while the model was on cuda:1. The fix is `.to(device, non_blocking=True)` for `x` as well.
Stand-in: `get_batch` for the tensor data set as in the repo (the bare `"cuda"` is written
`"cuda:0"`, the device it resolves to, since the simulated GPUs need an index; `pin_memory()` is
left out; the offsets `ix` are drawn with `random.randrange` instead of `torch.randint`, since a
simulated tensor's values cannot be read) and a nanoGPT-style GPT (embeddings, one block, head).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import random
from dataclasses import dataclass
import torch
import torch.nn as nn
import torch.nn.functional as F

@dataclass
class GPTConfig:
    block_size: int = 16
    vocab_size: int = 65
    n_layer: int = 1
    n_head: int = 4
    n_embd: int = 32

class GPT(nn.Module):
    """Stand-in for MDI-LLM's nanoGPT model (sub/model.py)."""
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            h=nn.TransformerEncoderLayer(config.n_embd, config.n_head, 4 * config.n_embd,
                                         batch_first=True, norm_first=True),
            ln_f=nn.LayerNorm(config.n_embd),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx, targets=None):
        device = idx.device
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        x = self.transformer.ln_f(self.transformer.h(x))
        logits = self.lm_head(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

def get_batch(dataset, batch_size: int, device: str, model_conf: GPTConfig):
    ix = [random.randrange(len(dataset) - model_conf.block_size) for _ in range(batch_size)]
    x = torch.stack([dataset[i : i + model_conf.block_size] for i in ix])
    y = torch.stack([dataset[i + 1 : i + model_conf.block_size + 1] for i in ix])
    if "cuda" in device:
        x, y = x.to("cuda:0", non_blocking=True), y.to(
            device, non_blocking=True
        )
    else:
        x, y = x.to(device), y.to(device)
    return x, y

device = "cuda:1"                  # training on the second GPU
model_conf = GPTConfig()
model = GPT(model_conf).to(device)
train_data = torch.randint(0, model_conf.vocab_size, (1000,))
batch_size = 8
'''
CELL = '''
X, Y = get_batch(train_data, batch_size, device, model_conf)
logits, loss = model(X, Y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('x, y = x.to("cuda:0", non_blocking=True), y.to(',
                  'x, y = x.to(device, non_blocking=True), y.to(')
CLEAN = False
