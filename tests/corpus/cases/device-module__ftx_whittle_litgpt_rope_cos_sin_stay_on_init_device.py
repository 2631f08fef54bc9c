"""whittle (LitGPT-based GPT): the RoPE cos/sin cache is built on the device chosen at construction and does not follow `model.to(device)`.

Source: https://github.com/whittle-org/whittle/pull/143
"fix: handle device in GPT model properly": the GPT module picked `cuda` itself when CUDA was
available and built its rope cache there; "if we move the model to another device via
`.to(device)` after initialization, the rope cache is still on the original device" and the
forward fails. The cache is kept as plain tensor attributes (`self.cos`, `self.sin`), which
`Module.to()` never sees. Stand-in: a one-block LitGPT-shaped GPT (token embedding, q/k/v
projections with RoPE, lm_head); the user trains on the second GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def build_rope_cache(seq_len, n_elem, device=None, base=10000):
    theta = 1.0 / (base ** (torch.arange(0, n_elem, 2, device=device).float() / n_elem))
    seq_idx = torch.arange(seq_len, device=device).float()
    idx_theta = torch.outer(seq_idx, theta).repeat(1, 2)
    return torch.cos(idx_theta), torch.sin(idx_theta)

def apply_rope(x, cos, sin):
    head_size = x.size(-1)
    x1, x2 = x[..., : head_size // 2], x[..., head_size // 2 :]
    rotated = torch.cat((-x2, x1), dim=-1)
    return x * cos + rotated * sin

class GPT(nn.Module):
    def __init__(self, vocab_size=128, n_embd=32, n_head=4, block_size=16):
        super().__init__()
        self.n_head, self.head_size, self.block_size = n_head, n_embd // n_head, block_size
        self.device = torch.device("cuda:0")        # "cuda" if torch.cuda.is_available() else "cpu"
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.attn = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.cos, self.sin = build_rope_cache(block_size, self.head_size, device=self.device)

    def forward(self, idx):
        B, T = idx.shape
        x = self.wte(idx)
        q, k, v = self.attn(x).view(B, T, 3, self.n_head, self.head_size).permute(2, 0, 3, 1, 4)
        q = apply_rope(q, self.cos, self.sin)
        k = apply_rope(k, self.cos, self.sin)
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, -1))
        return self.lm_head(x)

device = torch.device("cuda:1")
model = GPT()
model.to(device)
input_ids = torch.randint(0, 128, (2, 16)).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.cos", "model.sin"]
FIX = "namespace"
REFERENCE_FIX = '''
model.cos, model.sin = model.cos.to(device), model.sin.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
