"""Medusa's preallocated KV cache: the key/value storage is on the GPU, the per-layer `current_length` counters stay on the CPU on purpose.

Source: https://github.com/FasterDecoding/Medusa/blob/main/medusa/model/kv_cache.py
`initialize_past_key_values(model)` allocates one `past_key_values_data` tensor on `model.device` and
`current_length_data = torch.zeros(..., dtype=torch.long, device="cpu")` with the comment "[IMPORTANT]
It needs to be kept on CPU for quick access and updates". Each `KVCache` pairs a GPU slice with a CPU
0-dim length; `cat` narrows the GPU storage at that CPU offset and advances it in place. Look-alike:
CPU counters next to cuda caches, by design; the cell runs.
Stand-ins: Medusa's `KVCache` / `initialize_past_key_values` and a two-layer attention stack that
appends its keys and values through `KVCache.cat`; the GPU is `meta` (the CPU offset must be read).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class KVCache:
    def __init__(self, data, current_length):
        self.data = data
        self.current_length = current_length

    def cat(self, tensor, dim=2):
        dst = self.data.narrow(dim, self.current_length, tensor.shape[dim])
        dst.copy_(tensor)
        self.current_length.add_(tensor.shape[dim])
        return torch.narrow(self.data, 2, 0, self.current_length)

def initialize_past_key_values(model):
    config = model.config
    batch_size = 1
    past_key_values_data = torch.zeros(
        config.num_hidden_layers * 2, batch_size, config.num_attention_heads,
        config.max_position_embeddings, config.hidden_size // config.num_attention_heads,
        device=model.device, dtype=model.dtype)
    # [IMPORTANT] It needs to be kept on CPU for quick access and updates.
    current_length_data = torch.zeros(config.num_hidden_layers * 2, dtype=torch.long, device="cpu")
    past_key_values = []
    for i in range(config.num_hidden_layers):
        past_key_values.append([KVCache(past_key_values_data[i * 2 + j], current_length_data[i * 2 + j])
                                for j in range(2)])
    return past_key_values, past_key_values_data, current_length_data

class Attention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.k_proj = nn.Linear(hidden, hidden, bias=False)
        self.v_proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, h, past_key_value):
        b, s, _ = h.shape
        k = self.k_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = past_key_value[0].cat(k, dim=2)
        v = past_key_value[1].cat(v, dim=2)
        return h, k, v

class MedusaBase(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(num_hidden_layers=2, num_attention_heads=4,
                                      max_position_embeddings=64, hidden_size=32)
        self.layers = nn.ModuleList([Attention() for _ in range(2)])

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, h, past_key_values):
        for layer, pkv in zip(self.layers, past_key_values):
            h, k, v = layer(h, pkv)
        return h

device = torch.device("meta")   # the GPU, simulated with meta
model = MedusaBase().to(device).eval()
past_key_values, past_key_values_data, current_length_data = initialize_past_key_values(model)
hidden_states = torch.randn(1, 5, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    out = model(hidden_states, past_key_values)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
