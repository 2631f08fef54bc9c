"""Look-alike: build-nanogpt's training step under `torch.autocast(device_type=device_type, dtype=torch.bfloat16)` with fp32 weights.

Source: https://github.com/karpathy/build-nanogpt/pull/16
The fix: `torch.autocast` wants a device *type* ("cuda"/"cpu"), not a device string such as
"cuda:0", so the script derives `device_type = "cuda" if device.startswith("cuda") else "cpu"`
and uses it for autocast. Inside the context the linear layers run in bfloat16 while the
parameters, the embeddings' output and the LayerNorms stay float32; logits come out in bf16 and
the loss is computed from them; backward, gradient clipping and the AdamW step run on the fp32
master weights. Mixed dtypes on purpose, all handled by autocast. Stand-in: a 2-layer GPT with
the same block structure, random tokens; run on the CPU (device_type "cpu").
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
from torch.nn import functional as F

class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd = n_head, n_embd

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))

class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(approximate="tanh"), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))

class GPT(nn.Module):
    def __init__(self, vocab_size=128, block_size=16, n_layer=2, n_head=4, n_embd=32):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd), wpe=nn.Embedding(block_size, n_embd),
            h=nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)]), ln_f=nn.LayerNorm(n_embd)))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

device = "cpu"
device_type = "cuda" if device.startswith("cuda") else "cpu"
torch.manual_seed(1337)
model = GPT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), eps=1e-8)
buf = torch.randint(0, 128, (4 * 16 + 1,))
x, y = buf[:-1].view(4, 16).to(device), buf[1:].view(4, 16).to(device)
'''
CELL = '''
model.train()
optimizer.zero_grad()
with torch.autocast(device_type=device_type, dtype=torch.bfloat16):
    logits, loss = model(x, y)
loss.backward()
norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
optimizer.step()
print(f"loss {loss.item():.4f} | norm {norm:.4f} | logits {logits.dtype}")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
