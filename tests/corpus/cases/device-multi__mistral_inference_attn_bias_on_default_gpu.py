"""mistral-inference on cuda:7: the attention bias is materialised on the default GPU (cuda:0).

Source: https://github.com/mistralai/mistral-inference/issues/215
"Device error when running on other cuda device than cuda:0": with the model loaded on `cuda:7`,
`generate(...)` -> `Transformer.forward_partial` failed with "Attention bias and Query/Key/Value
should be on the same device  query.device: cuda:7  attn_bias: cuda:0". The causal block mask built
from the sequence lengths is materialised on the current (default) CUDA device, not on the model's.
Stand-in: the transformer reduced to one attention layer; the mask helper materialises on
"cuda:0" (the default device) as xformers' mask did; the error is PyTorch's own device check.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def materialize_causal_mask(seqlens, dtype=torch.float32, device="cuda:0"):
    n = sum(seqlens)
    mask = torch.full((n, n), float("-inf"), dtype=dtype, device=device)
    return torch.triu(mask, diagonal=1)

class Attention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.wq, self.wk, self.wv = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.wo = nn.Linear(dim, dim)

    def forward(self, x, attn_bias):
        q, k, v = self.wq(x), self.wk(x), self.wv(x)
        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5 + attn_bias
        return self.wo(scores.softmax(-1) @ v)

class Transformer(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([Attention(dim)])
        self.output = nn.Linear(dim, vocab)

    def forward_partial(self, input_ids, seqlens):
        h = self.tok_embeddings(input_ids)
        attn_bias = materialize_causal_mask(seqlens, dtype=h.dtype)
        for layer in self.layers:
            h = h + layer(h, attn_bias)
        return h

    def forward(self, input_ids, seqlens):
        return self.output(self.forward_partial(input_ids, seqlens))

device = torch.device("cuda:7")
model = Transformer().to(device)
tokens = torch.randint(0, 100, (9,)).to(device)
'''
CELL = '''
with torch.no_grad():
    prelogits = model.forward(tokens, seqlens=[9])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "attn_bias = materialize_causal_mask(seqlens, dtype=h.dtype)",
    "attn_bias = materialize_causal_mask(seqlens, dtype=h.dtype, device=h.device)",
)
CLEAN = False
