"""Offloaded KV cache on a hybrid (attention + linear-attention) model: `prefetch` brings back the next layer by index, a linear-attention layer, so the next attention layer's KV stays on the CPU and decoding fails.

Source: https://github.com/huggingface/transformers/pull/46748
"Fix offloaded cache device mismatch on hybrid models": with `cache_implementation="offloaded"` each
attention layer's KV is moved to the CPU after its `update` and `Cache.prefetch(layer_idx + 1)` brings
the next layer back. On a hybrid model whose attention layers are interleaved with linear-attention
(Mamba/SSM-style) layers, the prefetch lands on a linear-attention layer (a no-op), the next attention
layer's KV is never brought back, and the first decoding `update` concatenates a CPU cache with a fresh
cuda tensor: "RuntimeError: Expected all tensors to be on the same device ... cuda:0 ... cpu". The fix
makes `prefetch` skip the layers that are not offloaded. Stand-ins: transformers' `Cache` with offloading
(no CUDA streams), `DynamicLayer`/`LinearAttentionLayer`, and a four-layer hybrid model with a greedy
`generate` loop.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class DynamicLayer:
    is_sliding = False
    is_linear = False
    def __init__(self):
        self.keys, self.values, self.device = None, None, None

    def update(self, key_states, value_states):
        if self.keys is None:
            self.device = key_states.device
            self.keys, self.values = key_states, value_states
        else:
            self.keys = torch.cat([self.keys, key_states], dim=-2)
            self.values = torch.cat([self.values, value_states], dim=-2)
        return self.keys, self.values

    def offload(self):
        if self.keys is not None:
            self.keys = self.keys.to("cpu", non_blocking=True)
            self.values = self.values.to("cpu", non_blocking=True)

    def prefetch(self):
        if self.keys is not None and self.keys.device != self.device:
            self.keys = self.keys.to(self.device, non_blocking=True)
            self.values = self.values.to(self.device, non_blocking=True)

class LinearAttentionLayer:
    """Conv/recurrent state of a linear-attention layer: small, never offloaded."""
    is_sliding = False
    is_linear = True
    def __init__(self):
        self.recurrent_states = None
    def update_recurrent_state(self, state):
        self.recurrent_states = state
        return state
    def offload(self):
        pass
    def prefetch(self):
        pass

class Cache:
    """Stand-in for transformers.Cache with `offloading=True`."""
    def __init__(self, layer_types, offloading=False, offload_only_non_sliding=False):
        self.layers = [LinearAttentionLayer() if t == "linear_attention" else DynamicLayer() for t in layer_types]
        self.offloading = offloading
        self.only_non_sliding = offload_only_non_sliding
        self.is_sliding = [layer.is_sliding for layer in self.layers]

    def prefetch(self, layer_idx, only_non_sliding=True):
        if only_non_sliding:
            try:
                layer_idx = layer_idx + self.is_sliding[layer_idx:].index(False)
            except ValueError:
                layer_idx = self.is_sliding.index(False)
        else:
            layer_idx = layer_idx if layer_idx < len(self.layers) else 0
        self.layers[layer_idx].prefetch()

    def offload(self, layer_idx, only_non_sliding=True):
        if not (only_non_sliding and self.is_sliding[layer_idx]):
            self.layers[layer_idx].offload()

    def update(self, key_states, value_states, layer_idx):
        if self.offloading:
            self.prefetch(layer_idx + 1, self.only_non_sliding)
        keys, values = self.layers[layer_idx].update(key_states, value_states)
        if self.offloading:
            self.offload(layer_idx, self.only_non_sliding)
        return keys, values

    def get_seq_length(self):
        for layer in self.layers:
            if not layer.is_linear and layer.keys is not None:
                return layer.keys.shape[-2]
        return 0

class DynamicCache(Cache):
    def __init__(self, config=None, offloading=False):
        super().__init__(config.layer_types, offloading=offloading, offload_only_non_sliding=False)

class HybridConfig:
    hidden_size = 16
    vocab_size = 32
    layer_types = ["full_attention", "linear_attention", "full_attention", "linear_attention"]

class Attention(nn.Module):
    def __init__(self, d, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.qkv = nn.Linear(d, 3 * d)
    def forward(self, x, cache):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k, v = cache.update(k, v, self.layer_idx)
        return x + torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v

class LinearAttention(nn.Module):
    def __init__(self, d, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.in_proj = nn.Linear(d, d)
    def forward(self, x, cache):
        h = self.in_proj(x)
        cache.layers[self.layer_idx].update_recurrent_state(h[:, -1:])
        return x + torch.tanh(h)

class HybridForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        d = config.hidden_size
        self.embed_tokens = nn.Embedding(config.vocab_size, d)
        self.layers = nn.ModuleList([LinearAttention(d, i) if t == "linear_attention" else Attention(d, i)
                                     for i, t in enumerate(config.layer_types)])
        self.lm_head = nn.Linear(d, config.vocab_size, bias=False)

    def forward(self, input_ids, past_key_values):
        x = self.embed_tokens(input_ids)
        for layer in self.layers:
            x = layer(x, past_key_values)
        return self.lm_head(x)

    @torch.no_grad()
    def generate(self, input_ids, past_key_values, max_new_tokens=3):
        cur = input_ids
        for _ in range(max_new_tokens):
            logits = self(cur, past_key_values)
            cur = torch.argmax(logits[:, -1:], dim=-1)
            input_ids = torch.cat([input_ids, cur], dim=-1)
        return input_ids

model = HybridForCausalLM(HybridConfig()).to("cuda:0")     # a Qwen3.5-style hybrid checkpoint
input_ids = torch.randint(0, 32, (1, 6)).to("cuda:0")
past_key_values = DynamicCache(config=model.config, offloading=True)   # cache_implementation="offloaded"
'''
CELL = '''
out = model.generate(input_ids, past_key_values=past_key_values, max_new_tokens=3)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["past_key_values"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        else:
            layer_idx = layer_idx if layer_idx < len(self.layers) else 0
        self.layers[layer_idx].prefetch()""", """        else:
            layer_idx = layer_idx if layer_idx < len(self.layers) else 0
        n = len(self.layers)
        for step in range(n):
            idx = (layer_idx + step) % n
            if not self.layers[idx].is_linear and not (only_non_sliding and self.is_sliding[idx]):
                layer_idx = idx
                break
        self.layers[layer_idx].prefetch()""")
CLEAN = False
