"""minGPT `CausalSelfAttention`: the causal mask is a registered buffer built on the CPU and sliced to the sequence length in forward.

Source: https://github.com/karpathy/minGPT/blob/master/mingpt/model.py
`self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size,
block_size))` and `att = att.masked_fill(self.bias[:,:,:T,:T] == 0, float('-inf'))`: a float mask
made at construction without a device, used against the activations in every forward. As a buffer
it moves with `model.to(device)` (the trainer does `self.model = self.model.to(self.device)`), so
the model trains on the GPU. Look-alike: runs. Stand-in: one block of the model with the trainer's
batch transfer `[t.to(self.device) for t in batch]`; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
from torch.nn import functional as F

class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd=32, n_head=4, block_size=16):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                                     .view(1, 1, block_size, block_size))
        self.n_head, self.n_embd = n_head, n_embd

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)

class GPT(nn.Module):
    def __init__(self, vocab_size=65, n_embd=32, block_size=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.attn = CausalSelfAttention(n_embd=n_embd, block_size=block_size)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device).unsqueeze(0)
        x = self.wte(idx) + self.wpe(pos)
        x = x + self.attn(x)
        logits = self.lm_head(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

class Trainer:
    def __init__(self, model, device):
        self.device = device
        self.model = model.to(self.device)

device = torch.device("meta")          # the GPU, simulated with meta
trainer = Trainer(GPT(), device)
model = trainer.model
batch = [torch.randint(0, 65, (4, 12)), torch.randint(0, 65, (4, 12))]   # from the DataLoader, on the CPU
'''
CELL = '''
batch = [t.to(trainer.device) for t in batch]
x, y = batch
logits, loss = model(x, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
