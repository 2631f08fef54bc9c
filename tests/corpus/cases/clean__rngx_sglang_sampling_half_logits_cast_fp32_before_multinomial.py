"""Look-alike: sampling from a half-precision LM head with the logits cast to float32 before softmax / top-p / `torch.multinomial`.

Source: https://github.com/sgl-project/sglang/pull/773
"Move sampling logits to float32": the model runs in fp16/bf16, but the sampler works on
`logits.float()`: temperature, softmax, a PyTorch-native top-p filter (sort, cumsum, mask,
renormalise) and `torch.multinomial`; the sampled ids (int64) are then fed back to the bf16 model's
embedding. Half weights next to float32 probabilities and int64 ids is by design. Dtype only, on the
CPU. Stand-in: an embedding + bf16 linear head.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.embed(input_ids).mean(1))

def top_p_sample(logits, temperature, top_p):
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    probs_sort, probs_idx = probs.sort(dim=-1, descending=True)
    probs_sum = torch.cumsum(probs_sort, dim=-1)
    probs_sort = probs_sort.masked_fill((probs_sum - probs_sort) > top_p, 0.0)
    probs_sort = probs_sort / probs_sort.sum(dim=-1, keepdim=True)
    sampled = torch.multinomial(probs_sort, num_samples=1)
    return torch.gather(probs_idx, dim=1, index=sampled)

model = TinyLM().to(torch.bfloat16)
input_ids = torch.randint(0, 100, (2, 7))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
    next_ids = top_p_sample(logits, temperature=0.8, top_p=0.9)
    input_ids = torch.cat([input_ids, next_ids], dim=1)
    logits = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
