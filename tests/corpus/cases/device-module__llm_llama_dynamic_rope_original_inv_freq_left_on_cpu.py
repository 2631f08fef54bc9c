"""Llama dynamic RoPE: the model is built on the CPU and moved to cuda, but `original_inv_freq` is a plain attribute that stays behind.

Source: https://github.com/huggingface/transformers/pull/35608
"Fix device in rope module when using dynamic updates": "If a model is initialized on cpu, then moved
with `.cuda()` or `.to(device)`, the parameters and buffers are automatically moved, but not the other
internal tensors. This can lead to wrong device when going back to `self.original_inv_freq` in the rope
module as the model was originally on cpu." After a long prompt grows the dynamic-NTK frequencies, a
shorter one resets `inv_freq` to the CPU `original_inv_freq` and the rotary matmul mixes devices. The
merged fix moves `original_inv_freq` to the device before re-registering it. Stand-in: the
LlamaRotaryEmbedding dynamic path (sequence length read from the position_ids shape) in a small model.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

def _compute_dynamic_ntk_parameters(config, device, seq_len=None):
    base, dim = config.rope_theta, config.head_dim
    max_position_embeddings = config.max_position_embeddings
    factor = config.rope_scaling["factor"]
    seq_len = seq_len if seq_len is not None and seq_len > max_position_embeddings else max_position_embeddings
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float().to(device) / dim))
    return inv_freq, 1.0

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, config, device=None):
        super().__init__()
        self.rope_type = "dynamic"
        self.max_seq_len_cached = config.max_position_embeddings
        self.original_max_seq_len = config.max_position_embeddings
        self.config = config
        self.rope_init_fn = _compute_dynamic_ntk_parameters
        inv_freq, self.attention_scaling = self.rope_init_fn(self.config, device)
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.original_inv_freq = self.inv_freq

    def _dynamic_frequency_update(self, position_ids, device):
        seq_len = position_ids.shape[-1]
        if seq_len > self.max_seq_len_cached:  # growth
            inv_freq, self.attention_scaling = self.rope_init_fn(self.config, device, seq_len=seq_len)
            self.register_buffer("inv_freq", inv_freq, persistent=False)
            self.max_seq_len_cached = seq_len
        if seq_len < self.original_max_seq_len and self.max_seq_len_cached > self.original_max_seq_len:  # reset
            self.register_buffer("inv_freq", self.original_inv_freq, persistent=False)
            self.max_seq_len_cached = self.original_max_seq_len

    @torch.no_grad()
    def forward(self, x, position_ids):
        if "dynamic" in self.rope_type:
            self._dynamic_frequency_update(position_ids, device=x.device)
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos() * self.attention_scaling
        sin = emb.sin() * self.attention_scaling
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

class LlamaModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.rotary_emb = LlamaRotaryEmbedding(config)
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        cos, sin = self.rotary_emb(h, position_ids)
        return self.q_proj(h), cos, sin

config = SimpleNamespace(vocab_size=100, hidden_size=32, head_dim=8, rope_theta=10000.0,
                         max_position_embeddings=16, rope_scaling={"rope_type": "dynamic", "factor": 2.0})
model = LlamaModel(config)          # initialized on the CPU ...
model.to("cuda:0")                  # ... then moved
long_prompt = torch.randint(0, 100, (1, 24)).to("cuda:0")
_ = model(long_prompt)              # longer than max_position_embeddings: dynamic growth
short_prompt = torch.randint(0, 100, (1, 6)).to("cuda:0")
'''
CELL = '''
out, cos, sin = model(short_prompt)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.rotary_emb"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('            self.register_buffer("inv_freq", self.original_inv_freq, persistent=False)\n',
                  '            self.original_inv_freq = self.original_inv_freq.to(device)\n'
                  '            self.register_buffer("inv_freq", self.original_inv_freq, persistent=False)\n')
CLEAN = False
