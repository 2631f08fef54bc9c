"""Look-alike: mistral-inference on cuda:1 after the fix, the cache's attention mask built on the model's device.

Source: https://github.com/mistralai/mistral-inference/pull/216
"Fix device error when using cuda device other than cuda:0": the attention bias was created on
cuda:0 regardless of the selected device because `device` was not passed to `from_seqlens()` in
`BufferCache.get_input_metadata()`; the PR passes `device=self.device`. The model, its KV cache and
the mask all live on cuda:1, a non-default GPU, and run. Stand-in: the xformers block-diagonal causal
mask replaced by a dense causal bias, one attention layer with a KV cache held by the cache object.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class BufferCache:
    def __init__(self, n_layers, max_batch_size, sliding_window, n_kv_heads, head_dim):
        self.n_layers, self.sliding_window = n_layers, sliding_window
        self.cache_k = torch.empty((n_layers, max_batch_size, n_kv_heads, sliding_window, head_dim))
        self.cache_v = torch.empty((n_layers, max_batch_size, n_kv_heads, sliding_window, head_dim))

    def to(self, device, dtype):
        self.cache_k = self.cache_k.to(device=device, dtype=dtype)
        self.cache_v = self.cache_v.to(device=device, dtype=dtype)
        return self

    @property
    def device(self):
        return self.cache_k.device

    def get_input_metadata(self, seqlen):
        mask = torch.full((seqlen, seqlen), float("-inf"), device=self.device)
        return torch.triu(mask, diagonal=1)

class Transformer(nn.Module):
    def __init__(self, vocab=100, dim=32, n_heads=4):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.output = nn.Linear(dim, vocab, bias=False)

    @property
    def device(self):
        return self.tok_embeddings.weight.device

    def forward(self, input_ids, cache):
        b, s = input_ids.shape
        h = self.tok_embeddings(input_ids)
        q, k, v = (w(h).view(b, s, self.n_heads, self.head_dim).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
        attn_bias = cache.get_input_metadata(s)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim) + attn_bias
        return self.output((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, -1))

device = torch.device("cuda:1")
model = Transformer().to(device)
cache = BufferCache(1, 2, 16, 4, 8).to(device=model.device, dtype=torch.float32)
tokens = torch.randint(0, 100, (2, 7)).to(device)
'''
CELL = '''
with torch.no_grad():
    prelogits = model.forward(tokens, cache=cache)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
