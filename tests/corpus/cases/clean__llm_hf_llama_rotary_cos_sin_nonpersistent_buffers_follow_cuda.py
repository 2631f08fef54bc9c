"""LlamaRotaryEmbedding keeps its cos/sin cache as non-persistent buffers, so `model.to(device)` moves them with the model.

Source: https://github.com/huggingface/transformers/pull/22234
"Fix unnecessary move of tensors from CPU to GPU in LlamaRotaryEmbedding": the cached `cos_cached` /
`sin_cached` were plain attributes moved with `.to(x.device)` at every call; the PR registers them
as buffers (`persistent=False`) so they follow `Module.to()` and forward no longer copies them. sgugger
confirmed non-persistent buffers work with `init_empty_weights`. Look-alike: tensors created in
`__init__` on the CPU that are on the GPU at forward time. Stand-in: the 2023 LlamaRotaryEmbedding and
an attention block using it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LlamaRotaryEmbedding(torch.nn.Module):
    def __init__(self, dim, max_position_embeddings=64, base=10000, device=None):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float().to(device) / dim))
        self.register_buffer("inv_freq", inv_freq)
        self.max_seq_len_cached = max_position_embeddings
        t = torch.arange(self.max_seq_len_cached, device=self.inv_freq.device, dtype=self.inv_freq.dtype)
        freqs = torch.einsum("i,j->ij", t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None, :, :], persistent=False)
        self.register_buffer("sin_cached", emb.sin()[None, None, :, :], persistent=False)

    def forward(self, x, seq_len=None):
        return (
            self.cos_cached[:, :, :seq_len, ...].to(dtype=x.dtype),
            self.sin_cached[:, :, :seq_len, ...].to(dtype=x.dtype),
        )

def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class LlamaAttention(nn.Module):
    def __init__(self, hidden_size=64, num_heads=4):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, hidden_size // num_heads
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.rotary_emb = LlamaRotaryEmbedding(self.head_dim)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.rotary_emb(q, seq_len=q_len)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        return torch.matmul(q, k.transpose(2, 3))

model = LlamaAttention().to("cuda:0")
hidden_states = torch.randn(2, 12, 64).to("cuda:0")
'''
CELL = '''
attn_weights = model(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
