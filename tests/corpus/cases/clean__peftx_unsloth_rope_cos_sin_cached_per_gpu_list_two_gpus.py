"""Look-alike: unsloth keeps one RoPE cos/sin cache per GPU in plain Python lists and picks the copy by `x.device.index`.

Source: https://github.com/unslothai/unsloth/blob/main/unsloth/models/llama.py
`LlamaRotaryEmbedding.__init__` builds the cos/sin tables on the CPU and, for every visible device,
stores a copy in `self.multi_gpu_cos_cached[device.index]` / `self.multi_gpu_sin_cached[...]` - plain
list attributes that `Module.to()` never sees. `forward(x, position_ids, seq_len)` returns
`self.multi_gpu_cos_cached[x.device.index][:seq_len]`, so a decoder split over two GPUs (multi-GPU /
pipeline placement of the LoRA model) gets the table that lives on each layer's own device. Tensors
held outside the module on both GPUs, by design; nothing to report.
Stand-ins: unsloth's `LlamaRotaryEmbedding` (multi-GPU cache), `apply_rotary_pos_emb`, and a two-layer
attention stack with layer 0 on cuda:0 and layer 1 on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

DEVICE_COUNT = 2

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings=64, base=10000):
        super().__init__()
        self.dim = dim
        self.base = base
        self.current_rope_size = max_position_embeddings
        self.multi_gpu_cos_cached = [None] * DEVICE_COUNT
        self.multi_gpu_sin_cached = [None] * DEVICE_COUNT
        for device_idx in range(DEVICE_COUNT):
            self._set_cos_sin_cache(self.current_rope_size, device=torch.device(f"cuda:{device_idx}"),
                                    dtype=torch.get_default_dtype())

    def _set_cos_sin_cache(self, seq_len, device, dtype):
        self.current_rope_size = seq_len
        inv_freq = 1.0 / (self.base ** (torch.arange(0, self.dim, 2, dtype=torch.int64, device="cpu").float() / self.dim))
        t = torch.arange(self.current_rope_size, device="cpu", dtype=torch.int64).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos().to(dtype=dtype, device=device)
        sin = emb.sin().to(dtype=dtype, device=device)
        self.multi_gpu_cos_cached[device.index] = cos
        self.multi_gpu_sin_cached[device.index] = sin
        return cos, sin

    def forward(self, x, position_ids=None, seq_len=None):
        if seq_len is not None and seq_len > self.current_rope_size:
            self._set_cos_sin_cache(seq_len=seq_len, device=x.device, dtype=x.dtype)
        device_index = x.device.index
        return (
            self.multi_gpu_cos_cached[device_index][:seq_len],
            self.multi_gpu_sin_cached[device_index][:seq_len],
        )

def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb(q, k, cos, sin):
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

class LlamaAttention(nn.Module):
    def __init__(self, d, max_position_embeddings):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
        self.rotary_emb = LlamaRotaryEmbedding(d, max_position_embeddings=max_position_embeddings)

    def forward(self, h):
        q, k, v = self.q_proj(h), self.k_proj(h), self.v_proj(h)
        cos, sin = self.rotary_emb(v, seq_len=h.shape[1])
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        att = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return h + self.o_proj(att @ v)

d, seq_len = 32, 64
layers = nn.ModuleList([LlamaAttention(d, seq_len), LlamaAttention(d, seq_len)])
layers[0].to("cuda:0")
layers[1].to("cuda:1")
hidden_states = torch.randn(2, seq_len, d).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    h = layers[0](hidden_states)
    h = layers[1](h.to("cuda:1"))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
