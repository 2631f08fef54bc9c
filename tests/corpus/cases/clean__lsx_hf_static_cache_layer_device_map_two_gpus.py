"""transformers `StaticCache` for a model split over two GPUs: each layer's key/value buffers are allocated on that layer's device.

Source: https://github.com/huggingface/transformers/pull/33303
"Fix the initialization of the cache when we have multi gpu": the static cache takes a
`layer_device_map` and allocates `key_cache[i]` / `value_cache[i]` on the device of layer `i`, so with
`device_map="auto"` over two cards the cache is deliberately split across cuda:0 and cuda:1 and each
layer's `update` writes into buffers on its own card. Look-alike: one cache object whose tensors sit
on two GPUs, that runs.
Stand-in: a two-layer attention model with accelerate-style input-moving hooks and the static cache.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class StaticCache:
    def __init__(self, batch_size, max_cache_len, head_dim, layer_device_map):
        self.key_cache, self.value_cache = [], []
        for idx in range(len(layer_device_map)):
            device = layer_device_map[idx]
            self.key_cache.append(torch.zeros(batch_size, max_cache_len, head_dim, device=device))
            self.value_cache.append(torch.zeros(batch_size, max_cache_len, head_dim, device=device))

    def update(self, key_states, value_states, layer_idx, cache_position):
        k_out = torch.cat([self.key_cache[layer_idx][:, :cache_position], key_states], dim=1)
        v_out = torch.cat([self.value_cache[layer_idx][:, :cache_position], value_states], dim=1)
        return k_out, v_out

def align_devices_hook(module, args, kwargs):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args), kwargs

class Attention(nn.Module):
    def __init__(self, d, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, h, past_key_values=None, cache_position=0):
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        k, v = past_key_values.update(k, v, self.layer_idx, cache_position)
        attn = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).softmax(-1)
        return h + self.o(attn @ v)

class Model(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Attention(d, i) for i in range(2)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, past_key_values):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h, past_key_values=past_key_values, cache_position=0)
        return self.lm_head(h.to(self.lm_head.weight.device))

model = Model()
layer_device_map = {0: "cuda:0", 1: "cuda:1"}
model.embed_tokens.to("cuda:0"); model.lm_head.to("cuda:1")
for i, layer in enumerate(model.layers):
    layer.to(layer_device_map[i])
    layer.register_forward_pre_hook(align_devices_hook, with_kwargs=True)
past_key_values = StaticCache(batch_size=1, max_cache_len=16, head_dim=32, layer_device_map=layer_device_map)
input_ids = torch.randint(0, 64, (1, 6)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids, past_key_values)
print(logits.shape, [k.device for k in past_key_values.key_cache])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
