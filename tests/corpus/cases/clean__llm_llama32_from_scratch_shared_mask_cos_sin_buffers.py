"""LLMs-from-scratch Llama 3.2: mask, cos and sin are built once (on the CPU) and registered as buffers in every attention block.

Source: https://github.com/rasbt/LLMs-from-scratch/pull/389
"Introduce buffers to improve Llama 3.2 efficiency": a `SharedBuffers` cache builds the causal mask
and the RoPE cos/sin tables once, and each `GroupedQueryAttention` registers the same tensors with
`register_buffer`, so `model.to(device)` moves them with the weights. Look-alike: CPU tensors shared
between many modules that nevertheless sit on the GPU when the model runs. Stand-in: the notebook's
GQA block and a two-block model (no RoPE frequency scaling).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def precompute_rope_params(head_dim, theta_base=10_000, context_length=4096):
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    positions = torch.arange(context_length)
    angles = positions[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)

def compute_rope(x, cos, sin):
    batch_size, num_heads, seq_len, head_dim = x.shape
    x1 = x[..., : head_dim // 2]
    x2 = x[..., head_dim // 2 :]
    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)
    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)
    rotated = torch.cat((-x2, x1), dim=-1)
    return ((x * cos) + (rotated * sin)).to(dtype=x.dtype)

class SharedBuffers:
    _buffers = {}

    @staticmethod
    def get_buffers(context_length, head_dim, rope_base, dtype=torch.float32):
        key = (context_length, head_dim, rope_base, dtype)
        if key not in SharedBuffers._buffers:
            mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
            cos, sin = precompute_rope_params(head_dim, rope_base, context_length)
            if dtype is not None:
                cos = cos.to(dtype)
                sin = sin.to(dtype)
            SharedBuffers._buffers[key] = (mask, cos, sin)
        return SharedBuffers._buffers[key]

class GroupedQueryAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads, num_kv_groups, rope_base=10_000, dtype=None):
        super().__init__()
        self.d_out, self.num_heads = d_out, num_heads
        self.head_dim = d_out // num_heads
        self.W_key = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=False)
        self.W_value = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=False)
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        self.W_query = nn.Linear(d_in, d_out, bias=False)
        self.out_proj = nn.Linear(d_out, d_out, bias=False)
        mask, cos, sin = SharedBuffers.get_buffers(context_length, self.head_dim, rope_base, dtype)
        self.register_buffer("mask", mask)
        self.register_buffer("cos", cos)
        self.register_buffer("sin", sin)

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        keys = self.W_key(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        keys = compute_rope(keys, self.cos, self.sin)
        queries = compute_rope(queries, self.cos, self.sin)
        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores = attn_scores.masked_fill(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = (attn_weights @ values).transpose(1, 2).reshape(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)

class Llama3Model(nn.Module):
    def __init__(self, vocab_size=128, emb_dim=64, context_length=32, n_heads=4, n_kv_groups=2, n_layers=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, emb_dim)
        self.trf_blocks = nn.ModuleList(
            [GroupedQueryAttention(emb_dim, emb_dim, context_length, n_heads, n_kv_groups) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(emb_dim)
        self.out_head = nn.Linear(emb_dim, vocab_size, bias=False)

    def forward(self, in_idx):
        x = self.tok_emb(in_idx)
        for block in self.trf_blocks:
            x = x + block(x)
        return self.out_head(self.final_norm(x))

device = torch.device("cuda:0")
model = Llama3Model()
model.to(device)
idx = torch.randint(0, 128, (2, 10)).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(idx)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
