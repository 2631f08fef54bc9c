"""LitGPT: the RoPE cos/sin cache registered as non-persistent buffers, so `model.to(device)` carries it along.

Source: https://github.com/Lightning-AI/litgpt/pull/527
"Define the rope cache as nonpersistent buffers": `GPT` builds `cos, sin = self.rope_cache()` once and
keeps them with `self.register_buffer("cos", cos, persistent=False)` (and "sin"); forward slices
`self.cos[:T]`. The cache is created on the CPU at construction, is not in the checkpoint, and still
follows the module to the GPU. Look-alike: a rope cache outside the state dict that runs after
`.to()`. Stand-in: a one-block LitGPT-shaped GPT; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
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
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin

class GPT(nn.Module):
    def __init__(self, vocab_size=128, n_embd=32, n_head=4, block_size=16):
        super().__init__()
        self.n_head, self.head_size, self.max_seq_length = n_head, n_embd // n_head, block_size
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.attn = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        cos, sin = self.rope_cache()
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def rope_cache(self, device=None):
        return build_rope_cache(self.max_seq_length, self.head_size, device=device)

    def forward(self, idx):
        B, T = idx.shape
        cos, sin = self.cos[:T], self.sin[:T]
        x = self.wte(idx)
        q, k, v = self.attn(x).view(B, T, 3, self.n_head, self.head_size).permute(2, 0, 3, 1, 4)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.lm_head(x + self.proj(y.transpose(1, 2).reshape(B, T, -1)))

device = torch.device("meta")          # the GPU, simulated with meta
model = GPT()
model.to(device)
input_ids = torch.randint(0, 128, (2, 12)).to(device)
'''
CELL = '''
logits = model(input_ids)
print(logits.shape, model.cos.device, "cos" in model.state_dict())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
