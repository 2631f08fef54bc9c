"""gpt-oss Responses API (Triton backend): every layer's KV `Cache` is created without the model's device.

Source: https://github.com/openai/gpt-oss/issues/271
`get_infer_next_token()` builds `caches = [Cache(CONCURRENT_SESSIONS, CONTEXT,
model.config.num_key_value_heads) for _ in range(len(model.block))]`; `Cache.__init__` defaults
`device=None`, so the key/value tensors are allocated on the CPU while the model and the prefill
tokens are on the CUDA `device` from `load_model()`; the warmup prefill then mixes devices. The
proposed fix passes `device=device` to each `Cache`. Stand-in: a two-block attention model writing
into preallocated caches (the Triton kernels replaced by plain torch ops).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class Cache:
    def __init__(self, batch_size, n_ctx, n_kv_heads, d_head=8, device=None):
        self.k = torch.zeros((batch_size, n_ctx, n_kv_heads, d_head), dtype=torch.float32, device=device)
        self.v = torch.zeros((batch_size, n_ctx, n_kv_heads, d_head), dtype=torch.float32, device=device)
        self.offset = 0

    def extend(self, k, v):
        n = k.shape[1]
        pad = self.k.shape[1] - n
        new_k = torch.cat([k, self.k[:, :pad]], dim=1)   # write at the start (stand-in for index_copy_)
        new_v = torch.cat([v, self.v[:, :pad]], dim=1)
        self.k, self.v = new_k, new_v
        self.offset += n
        return self.k, self.v

class AttentionBlock(nn.Module):
    def __init__(self, d=32, n_kv_heads=4, d_head=8):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * n_kv_heads * d_head)
        self.out = nn.Linear(n_kv_heads * d_head, d)
        self.n_kv_heads, self.d_head = n_kv_heads, d_head

    def forward(self, x, cache):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_kv_heads, self.d_head).unbind(2)
        k_all, v_all = cache.extend(k, v)
        att = torch.einsum("bthd,bshd->bhts", q, k_all).softmax(-1)
        y = torch.einsum("bhts,bshd->bthd", att, v_all).reshape(b, t, -1)
        return x + self.out(y)

class Transformer(nn.Module):
    def __init__(self, vocab=100, d=32, n_blocks=2):
        super().__init__()
        self.config = SimpleNamespace(num_key_value_heads=4)
        self.embedding = nn.Embedding(vocab, d)
        self.block = nn.ModuleList([AttentionBlock(d) for _ in range(n_blocks)])
        self.unembedding = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens, caches):
        x = self.embedding(tokens)
        for block, cache in zip(self.block, caches):
            x = block(x, cache)
        return self.unembedding(x)

CONCURRENT_SESSIONS = 1
CONTEXT = 16

def load_model(device):
    return Transformer().to(device)

def get_infer_next_token(model, device):
    caches = [
        Cache(CONCURRENT_SESSIONS, CONTEXT, model.config.num_key_value_heads)
        for _ in range(len(model.block))
    ]
    # warmup prefill, as the Responses API does before serving a request
    warmup = torch.zeros((1, 4), dtype=torch.long, device=device)
    model(warmup, caches)

    def infer_next_token(tokens, temperature=0.0, new_request=False):
        logits = model(torch.as_tensor(tokens, device=device)[None, -1:], caches)
        return logits[0, -1].argmax(-1)
    return infer_next_token

device = torch.device("cuda:0")
model = load_model(device)
'''
CELL = '''
infer_next_token = get_infer_next_token(model, device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["caches"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("Cache(CONCURRENT_SESSIONS, CONTEXT, model.config.num_key_value_heads)",
                  "Cache(CONCURRENT_SESSIONS, CONTEXT, model.config.num_key_value_heads, device=device)")
CLEAN = False
