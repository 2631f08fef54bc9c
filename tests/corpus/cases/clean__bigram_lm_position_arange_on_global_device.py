"""Karpathy's lecture GPT builds its position indices with `torch.arange(T, device=device)` in forward.

Source: https://github.com/karpathy/ng-video-lecture/issues/54
The issue asks why `pos_emb = self.position_embedding_table(torch.arange(T, device=device))` is
created on every forward pass instead of being a registered buffer. The code is correct - the
index tensor is made on the global `device` the model was moved to - the question is only about
allocation. Look-alike: a tensor created inside forward, on the right device.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import functional as F

device = 'cuda' if True else 'cpu'   # the lecture: 'cuda' if torch.cuda.is_available() else 'cpu'
device = 'cuda:0'
vocab_size, n_embd, block_size = 65, 32, 8

class BigramLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T, device=device))
        x = self.ln_f(tok_emb + pos_emb)
        logits = self.lm_head(x)
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        loss = F.cross_entropy(logits.view(B * T, C), targets.view(B * T))
        return logits, loss

model = BigramLanguageModel()
m = model.to(device)
xb = torch.randint(0, vocab_size, (4, block_size)).to(device)
yb = torch.randint(0, vocab_size, (4, block_size)).to(device)
'''
CELL = '''
logits, loss = m(xb, yb)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
