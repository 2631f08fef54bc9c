"""lit-gpt KV-cache generate: `idx.index_copy(0, input_pos, idx_next)` with int32 prompt ids and the int64 token from `torch.multinomial`.

Source: https://github.com/Lightning-AI/litgpt/pull/51
"Adding cached KVs" rewrote `generate` to preallocate `idx` with the prompt's dtype (the tokenizer
encodes to `torch.int`) and write each sampled token with `index_copy`; carmocca's review: "index_copy
requires that the dtype matches, so we need `idx_next = torch.multinomial(probs,
num_samples=1).to(dtype=idx.dtype)`", which was merged. Stand-in: the PR's generate loop, a tiny
Parrot-shaped model taking (x, max_seq_length, input_pos), and the tokenizer's int32 encode.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from typing import Optional
import torch
import torch.nn as nn

class Parrot(nn.Module):
    def __init__(self, vocab_size=50, n_embd=32, block_size=64):
        super().__init__()
        self.block_size = block_size
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, max_seq_length, input_pos=None):
        return self.lm_head(torch.tanh(self.proj(self.wte(idx))))

class Tokenizer:
    def encode(self, string, device=None):
        tokens = [sum(map(ord, w)) % 50 for w in string.split()]
        return torch.tensor(tokens, dtype=torch.int, device=device)

@torch.no_grad()
def generate(model, idx, max_new_tokens, *, max_seq_length=None, temperature=1.0, top_k=None, eos_id=None):
    T = idx.size(0)
    T_new = T + max_new_tokens
    if max_seq_length is None:
        max_seq_length = min(T_new, model.block_size)
    device, dtype = idx.device, idx.dtype
    # create an empty tensor of the expected final shape and fill in the current tokens
    empty = torch.empty(T_new, dtype=dtype, device=device)
    empty[:T] = idx
    idx = empty
    input_pos = torch.arange(0, T, device=device)
    for _ in range(max_new_tokens):
        x = idx.index_select(0, input_pos).view(1, -1)
        logits = model(x, max_seq_length, input_pos)
        logits = logits[0, -1] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits = torch.where(logits < v[[-1]], -float("Inf"), logits)
        probs = torch.nn.functional.softmax(logits, dim=-1)
        idx_next = torch.multinomial(probs, num_samples=1)
        input_pos = input_pos[-1:] + 1
        idx = idx.index_copy(0, input_pos, idx_next)
        if idx_next == eos_id:
            return idx[:input_pos]
    return idx

model = Parrot().eval()
tokenizer = Tokenizer()
encoded = tokenizer.encode("Hello, my name is")
'''
CELL = '''
torch.manual_seed(1234)
y = generate(model, encoded, 10, temperature=0.8, top_k=20)
'''
EXPECT_ERROR = "expected to have the same dtype"
CULPRITS = ["idx_next"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("idx_next = torch.multinomial(probs, num_samples=1)\n",
                  "idx_next = torch.multinomial(probs, num_samples=1).to(dtype=idx.dtype)\n")
CLEAN = False
