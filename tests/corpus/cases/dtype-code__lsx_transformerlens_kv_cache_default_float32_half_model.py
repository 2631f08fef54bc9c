"""TransformerLens: the KV cache of a float16 model is initialised with `torch.get_default_dtype()` (float32).

Source: https://github.com/TransformerLensOrg/TransformerLens/pull/1260
`HookedTransformer.from_pretrained("gpt2", dtype=torch.float16)` then
`model.generate(tokens, max_new_tokens=16, use_past_kv_cache=True)` fails with "expected scalar type
Half but found Float" at `attn_scores = q_ @ k_ / self.attn_scale`: `init_cache_entry` creates
`past_keys`/`past_values` with `torch.get_default_dtype()`, and `torch.cat([past_keys, new_keys])`
promotes the keys to float32. The fix uses `cfg.dtype`.
Stand-in: a one-block HookedTransformer with its cache entry and generate loop; cpu, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import types
import torch
from torch import nn

class KeyValueCacheEntry:
    def __init__(self, past_keys, past_values):
        self.past_keys, self.past_values = past_keys, past_values

    @classmethod
    def init_cache_entry(cls, cfg, device, batch_size=1):
        shape = (batch_size, 0, cfg.n_heads, cfg.d_head)
        return cls(torch.empty(shape, device=device, dtype=torch.get_default_dtype()),
                   torch.empty(shape, device=device, dtype=torch.get_default_dtype()))

    def append(self, new_keys, new_values):
        self.past_keys = torch.cat([self.past_keys, new_keys], dim=1)
        self.past_values = torch.cat([self.past_values, new_values], dim=1)
        return self.past_keys, self.past_values

class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.W_qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.W_O = nn.Linear(cfg.d_model, cfg.d_model)
        self.attn_scale = math.sqrt(cfg.d_head)

    def forward(self, x, cache_entry):
        b, t, _ = x.shape
        q, k, v = (z.view(b, t, self.cfg.n_heads, self.cfg.d_head) for z in self.W_qkv(x).chunk(3, -1))
        k, v = cache_entry.append(k, v)
        q_, k_ = q.transpose(1, 2), k.permute(0, 2, 3, 1)
        attn_scores = q_ @ k_ / self.attn_scale
        z = attn_scores.softmax(-1) @ v.transpose(1, 2)
        return self.W_O(z.transpose(1, 2).reshape(b, t, -1))

class HookedTransformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.d_vocab, cfg.d_model)
        self.attn = Attention(cfg)
        self.unembed = nn.Linear(cfg.d_model, cfg.d_vocab, bias=False)

    @classmethod
    def from_pretrained(cls, name, dtype=torch.float32, device="cpu"):
        cfg = types.SimpleNamespace(d_vocab=64, d_model=32, n_heads=4, d_head=8, dtype=dtype, device=device)
        return cls(cfg).to(dtype)

    def forward(self, tokens, cache_entry):
        x = self.embed(tokens)
        return self.unembed(x + self.attn(x, cache_entry))

    @torch.no_grad()
    def generate(self, tokens, max_new_tokens=8, use_past_kv_cache=True):
        cache_entry = KeyValueCacheEntry.init_cache_entry(self.cfg, self.cfg.device, tokens.shape[0])
        logits = self(tokens, cache_entry)
        for _ in range(max_new_tokens):
            nxt = logits[:, -1].float().argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, nxt], dim=-1)
            logits = self(nxt, cache_entry)
        return tokens

model = HookedTransformer.from_pretrained("gpt2", dtype=torch.float16)
tokens = torch.randint(0, 64, (1, 5))                  # model.to_tokens("Hello world")
'''
CELL = '''
out = model.generate(tokens, max_new_tokens=16, use_past_kv_cache=True)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        return cls(torch.empty(shape, device=device, dtype=torch.get_default_dtype()),
                   torch.empty(shape, device=device, dtype=torch.get_default_dtype()))""",
                  """        return cls(torch.empty(shape, device=device, dtype=cfg.dtype),
                   torch.empty(shape, device=device, dtype=cfg.dtype))""")
CLEAN = False
