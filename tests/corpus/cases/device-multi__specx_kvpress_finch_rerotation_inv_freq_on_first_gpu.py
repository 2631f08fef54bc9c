"""kvpress FinchPress on a model split over two GPUs: key re-rotation mixes the shared rotary `inv_freq` (GPU 0) with the kept-token indices of a layer on GPU 1.

Source: https://github.com/NVIDIA/kvpress/issues/240
"KeyRerotationPress fails on multi-GPU setups": with the model loaded with `device_map="auto"` and
split over several GPUs, `FinchPress.compress` -> `KeyRerotationPress.rerotate_keys` ->
`_rerotate_cos_sin` fails at `freqs = delta_pos.float() * inv_freq.float()` with "Expected all
tensors to be on the same device ... cuda:0 and cuda:1": `selected_positions`/`delta_pos` live on
the layer's GPU while `module.rotary_emb.inv_freq` (the language model's single rotary embedding,
attached to every attention layer) stays on the first GPU. The fix (PR #241) takes `x.device` (the
keys) as the device and moves `selected_positions` and `inv_freq` there.
Stand-ins: kvpress's `KeyRerotationPress` (pre-fix `_rerotate_cos_sin`), a FinchPress-like press
scoring keys by norm (window handling left out), a two-layer Llama-style model dispatched as
`device_map="auto"` would (layer 1 on cuda:1), and the press's forward hook on each attention layer.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
from contextlib import contextmanager
from dataclasses import dataclass
import torch
from torch import nn

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

class LlamaAttention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.num_key_value_heads, self.head_dim = heads, hidden // heads
        self.k_proj = nn.Linear(hidden, hidden, bias=False)
        self.v_proj = nn.Linear(hidden, hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, hidden_states):
        b, q_len, _ = hidden_states.shape
        shape = (b, q_len, self.num_key_value_heads, self.head_dim)
        keys = self.k_proj(hidden_states).view(shape).transpose(1, 2)
        values = self.v_proj(hidden_states).view(shape).transpose(1, 2)
        self.cache = (keys, values)
        return self.o_proj(hidden_states)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.self_attn = LlamaAttention(hidden)

    def forward(self, h):
        return h + self.self_attn(h)

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, heads=4, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.rotary_emb = LlamaRotaryEmbedding(hidden // heads)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return h

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()

    def forward(self, input_ids):
        return self.model(input_ids)

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args)

@dataclass
class KeyRerotationPress:
    @staticmethod
    def _rerotate_cos_sin(x, inv_freq, selected_positions):
        bsz, num_key_value_heads, n_kept = selected_positions.shape
        device = selected_positions.device
        device_type = x.device.type
        dtype = x.dtype
        idx = torch.arange(0, n_kept, device=device)
        idx = idx.unsqueeze(0)
        inv_freq = inv_freq[None, None, :, None].float().expand(bsz, num_key_value_heads, -1, 1)
        idx = idx[:, None, :].float().expand(bsz, num_key_value_heads, n_kept)
        delta_pos = idx - selected_positions
        delta_pos = delta_pos.unsqueeze(2)
        freqs = delta_pos.float() * inv_freq.float()
        freqs = freqs.transpose(2, 3)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype=dtype), emb.sin().to(dtype=dtype)

    @staticmethod
    def rerotate_keys(module, indices, keys):
        new_cos, new_sin = KeyRerotationPress._rerotate_cos_sin(keys, module.rotary_emb.inv_freq, indices)
        indices = indices.unsqueeze(-1).expand(-1, -1, -1, module.head_dim)
        keys = keys.gather(2, indices).contiguous()
        return (keys * new_cos) + (rotate_half(keys) * new_sin)

@dataclass
class FinchPress:
    compression_ratio: float = 0.0
    rerotate_keys: bool = True

    def score(self, module, hidden_states, keys, values):
        return keys.norm(dim=-1)

    def compress(self, module, hidden_states, keys, values):
        if self.compression_ratio == 0:
            return keys, values
        scores = self.score(module, hidden_states, keys, values)
        k_len = keys.shape[2]
        n_kept = int(k_len * (1 - self.compression_ratio))
        indices = scores.topk(n_kept, dim=-1).indices
        if self.rerotate_keys:
            indices = torch.sort(indices, dim=2).values
            keys = KeyRerotationPress.rerotate_keys(module, indices, keys)
            indices = indices.unsqueeze(-1).expand(-1, -1, -1, module.head_dim)
        values = values.gather(2, indices).contiguous()
        return keys, values

    def forward_hook(self, module, input, output):
        keys, values = module.cache
        module.cache = self.compress(module, input[0], keys, values)
        return output

    @contextmanager
    def __call__(self, model):
        language_model = model.model
        hooks = []
        for layer in language_model.layers:
            layer.self_attn.rotary_emb = language_model.rotary_emb
            hooks.append(layer.self_attn.register_forward_hook(self.forward_hook))
        try:
            yield
        finally:
            for h in hooks:
                h.remove()

model = LlamaForCausalLM().eval()
model.model.embed_tokens.to("cuda:0")
model.model.rotary_emb.to("cuda:0")
model.model.layers[0].to("cuda:0")
model.model.layers[1].to("cuda:1")
for layer in model.model.layers:
    layer.register_forward_pre_hook(align_devices_hook)
press = FinchPress(compression_ratio=0.5)
input_ids = torch.randint(0, 100, (1, 16)).to("cuda:0")
'''
CELL = '''
with torch.no_grad(), press(model):
    out = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["press"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        device = selected_positions.device\n",
                  "        device = x.device\n"
                  "        selected_positions = selected_positions.to(device)\n"
                  "        inv_freq = inv_freq.to(device)\n")
CLEAN = False
