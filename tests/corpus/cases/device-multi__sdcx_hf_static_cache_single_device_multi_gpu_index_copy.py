"""Llama split over two GPUs with `device_map="auto"`: a `StaticCache` built with `device=torch_device` puts every layer's buffers on cuda:0, so layer 1 (cuda:1) fails in `index_copy_`.

Source: https://github.com/huggingface/transformers/pull/32543
"fix multi-gpu with static cache": with Llama loaded with `device_map="auto"` over two GPUs and a
`StaticCache` built for one `torch_device` passed to the forward (or used by `generate`) together with a
`cache_position`, the second GPU's layers fail with "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cuda:1! (when checking argument for argument index in method wrapper_CUDA_index_copy_)":
`StaticCache.__init__` allocates every layer's `key_cache`/`value_cache` on the one `device`, while
accelerate's hook moves `cache_position` and the key/value states to the layer's GPU. The merged fix
moves the layer's cache buffers to the key/value states' device at the top of `StaticCache.update`
(later replaced by a per-layer device map, PR #33303). Stand-ins: a two-layer Llama-like model with
accelerate-style `AlignDevicesHook` wrappers and transformers 4.44's `StaticCache`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class StaticCache:
    """Stand-in for transformers.StaticCache (4.44)."""
    def __init__(self, config, max_batch_size, max_cache_len, device, dtype=torch.float32):
        self.max_cache_len = max_cache_len
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.num_key_value_heads = config.num_attention_heads
        self.key_cache = []
        self.value_cache = []
        cache_shape = (max_batch_size, self.num_key_value_heads, self.max_cache_len, self.head_dim)
        for idx in range(config.num_hidden_layers):
            new_layer_key_cache = torch.zeros(cache_shape, dtype=dtype, device=device)
            new_layer_value_cache = torch.zeros(cache_shape, dtype=dtype, device=device)
            self.key_cache.append(new_layer_key_cache)
            self.value_cache.append(new_layer_value_cache)

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        cache_position = cache_kwargs.get("cache_position")
        k_out = self.key_cache[layer_idx]
        v_out = self.value_cache[layer_idx]
        k_out.index_copy_(2, cache_position, key_states)
        v_out.index_copy_(2, cache_position, value_states)
        return k_out, v_out

class LlamaConfig:
    hidden_size = 32
    num_attention_heads = 4
    num_hidden_layers = 2
    vocab_size = 64

class LlamaAttention(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)

    def forward(self, hidden_states, past_key_value=None, cache_position=None):
        bsz, q_len, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx, {"cache_position": cache_position})
        attn = torch.softmax(q @ k.transpose(2, 3) / self.head_dim ** 0.5, dim=-1) @ v
        return self.o_proj(attn.transpose(1, 2).reshape(bsz, q_len, -1))

class LlamaDecoderLayer(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(config.hidden_size)
        self.self_attn = LlamaAttention(config, layer_idx)

    def forward(self, hidden_states, past_key_value=None, cache_position=None):
        return hidden_states + self.self_attn(self.input_layernorm(hidden_states), past_key_value, cache_position)

class LlamaForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([LlamaDecoderLayer(config, i) for i in range(config.num_hidden_layers)])
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.dtype = torch.float32

    def forward(self, input_ids, attention_mask=None, cache_position=None, past_key_values=None,
                return_dict=True, use_cache=True):
        hidden_states = self.embed_tokens(input_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, past_key_value=past_key_values,
                                          cache_position=cache_position)
        return (self.lm_head(hidden_states),)

def add_hook_to_module(module, execution_device):
    """Stand-in for accelerate's AlignDevicesHook: every tensor argument goes to the module's device."""
    old_forward = module.forward
    def new_forward(*args, **kwargs):
        args = [a.to(execution_device) if isinstance(a, torch.Tensor) else a for a in args]
        kwargs = {k: (v.to(execution_device) if isinstance(v, torch.Tensor) else v) for k, v in kwargs.items()}
        return old_forward(*args, **kwargs)
    module.forward = new_forward

def dispatch_model(model, device_map):
    for name, device in device_map.items():
        submodule = model.get_submodule(name)
        submodule.to(device)
        add_hook_to_module(submodule, device)
    return model

model = LlamaForCausalLM(LlamaConfig())      # from_pretrained(..., device_map="auto")
model = dispatch_model(model, {"embed_tokens": "cuda:0", "layers.0": "cuda:0",
                               "layers.1": "cuda:1", "lm_head": "cuda:1"})
model.eval()
torch_device = "cuda:0"
inputs = {"input_ids": torch.randint(0, 64, (2, 7)).to(torch_device),
          "attention_mask": torch.ones(2, 7, dtype=torch.long).to(torch_device)}
batch_size, seq_length = inputs["input_ids"].shape
past_key_values = StaticCache(config=model.config, max_batch_size=2, max_cache_len=64,
                              device=torch_device, dtype=model.dtype)
cache_position = torch.arange(seq_length, device=torch_device)
'''
CELL = '''
logits = model(**inputs, cache_position=cache_position, past_key_values=past_key_values,
               return_dict=False, use_cache=True)[0]
next_token = torch.argmax(logits[:, -1], dim=-1)[:, None]
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected to be in the same device")
CULPRITS = ["past_key_values"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        k_out = self.key_cache[layer_idx]
        v_out = self.value_cache[layer_idx]
""", """        self.key_cache[layer_idx] = self.key_cache[layer_idx].to(device=key_states.device)
        self.value_cache[layer_idx] = self.value_cache[layer_idx].to(device=value_states.device)
        k_out = self.key_cache[layer_idx]
        v_out = self.value_cache[layer_idx]
""")
CLEAN = False
