"""NeMo Automodel: a Llama cast to bfloat16 keeps its rotary `inv_freq` in float32 and casts cos/sin to the activations' dtype.

Source: https://github.com/NVIDIA-NeMo/Automodel/pull/2549
"keep RoPE frequency buffers fp32 under bf16 model cast": `cast_model_to_dtype` honours
`_keep_in_fp32_modules`, so `rotary_emb` stays float32 while every Linear/Embedding is bfloat16; the
rotary module builds its cos/sin tables in float32 and returns them `.to(x.dtype)`. Look-alike: a
deliberately fp32 submodule inside a bf16 model, that runs.
Stand-in: a one-layer Llama-shaped attention block and the cast helper.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :].float()
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)

class LlamaForCausalLM(nn.Module):
    _keep_in_fp32_modules = ["rotary_emb"]

    def __init__(self, vocab_size=100, hidden=64, heads=4):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, hidden, bias=False)
        self.v_proj = nn.Linear(hidden, hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)
        self.rotary_emb = LlamaRotaryEmbedding(self.head_dim)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        b, t = input_ids.shape
        h = self.embed_tokens(input_ids)
        position_ids = torch.arange(t, device=input_ids.device)[None]
        cos, sin = self.rotary_emb(h, position_ids)
        q = self.q_proj(h).view(b, t, self.heads, -1).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.heads, -1).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.heads, -1).transpose(1, 2)
        cos, sin = cos[:, None], sin[:, None]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        attn = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        h = h + self.o_proj(attn.transpose(1, 2).reshape(b, t, -1))
        return self.lm_head(h)

def cast_model_to_dtype(model, dtype):
    keep = getattr(model, "_keep_in_fp32_modules", [])
    for name, module in model.named_children():
        if name not in keep:
            module.to(dtype)
    return model

model = cast_model_to_dtype(LlamaForCausalLM(), torch.bfloat16)
input_ids = torch.randint(0, 100, (2, 10))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
print(logits.dtype, model.rotary_emb.inv_freq.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
