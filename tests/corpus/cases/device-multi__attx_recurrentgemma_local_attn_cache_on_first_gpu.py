"""RecurrentGemma split over two GPUs: the local-attention KV cache is set up on the first GPU for every layer.

Source: https://github.com/huggingface/transformers/pull/30273
"Fix RecurrentGemma device_map": with `device_map="auto"` over two GPUs, `generate` failed. `_setup_cache`
initialises each attention layer's `self.key_states` / `self.value_states` on the device of the hidden
states handed to the model (cuda:0), but layers placed on cuda:1 then update that cache with their own
cuda:1 keys. The PR moves the cache in `_update_cache`: `self.key_states.to(key_states.device)`.
Stand-in: a two-layer model with sliding-window attention caches; accelerate's device-map hooks are a
forward pre-hook moving the hidden states to each layer's device.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import torch
from torch import nn

class RecurrentGemmaSdpaAttention(nn.Module):
    def __init__(self, hidden=32, heads=4, window=8):
        super().__init__()
        self.num_heads, self.head_dim, self.window = heads, hidden // heads, window
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, hidden, bias=False)
        self.v_proj = nn.Linear(hidden, hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)

    def _setup_cache(self, batch_size, device, dtype=None):
        cache_shape = (batch_size, self.num_heads, self.window, self.head_dim)
        self.key_states = torch.zeros(cache_shape, dtype=dtype, device=device)
        self.value_states = torch.zeros(cache_shape, dtype=dtype, device=device)

    def _update_cache(self, key_states, value_states):
        k_out, v_out = self.key_states, self.value_states
        k_out = torch.cat([k_out[:, :, key_states.shape[2]:], key_states], dim=2)
        v_out = torch.cat([v_out[:, :, value_states.shape[2]:], value_states], dim=2)
        self.key_states, self.value_states = k_out, v_out
        return k_out, v_out

    def forward(self, hidden_states):
        b, q_len, _ = hidden_states.shape
        shape = (b, q_len, self.num_heads, self.head_dim)
        q = self.q_proj(hidden_states).view(shape).transpose(1, 2)
        k = self.k_proj(hidden_states).view(shape).transpose(1, 2)
        v = self.v_proj(hidden_states).view(shape).transpose(1, 2)
        k, v = self._update_cache(k, v)
        attn = (q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)).softmax(-1)
        return self.o_proj((attn @ v).transpose(1, 2).reshape(b, q_len, -1))

class RecurrentGemmaDecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.temporal_pre_norm = nn.LayerNorm(hidden)
        self.temporal_block = RecurrentGemmaSdpaAttention(hidden)

    def forward(self, h):
        return h + self.temporal_block(self.temporal_pre_norm(h))

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args)

class RecurrentGemmaForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([RecurrentGemmaDecoderLayer(hidden) for _ in range(n_layers)])
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def _setup_cache(self, batch, device, dtype):
        for layer in self.layers:
            layer.temporal_block._setup_cache(batch, device, dtype)

    def forward(self, input_ids, cache_position):
        hidden_states = self.embed_tokens(input_ids)
        if cache_position == 0:
            self._setup_cache(input_ids.shape[0], hidden_states.device, hidden_states.dtype)
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        return self.lm_head(hidden_states.to(self.lm_head.weight.device))

model = RecurrentGemmaForCausalLM()
model.embed_tokens.to("cuda:0")
model.layers[0].to("cuda:0")
model.layers[1].to("cuda:1")
model.lm_head.to("cuda:1")
for layer in model.layers:
    layer.register_forward_pre_hook(align_devices_hook)
input_ids = torch.randint(0, 100, (1, 4)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids, cache_position=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("k_out, v_out = self.key_states, self.value_states",
                  "k_out, v_out = self.key_states.to(key_states.device), self.value_states.to(value_states.device)")
CLEAN = False
