"""transformers `EOSTokenCriteria`: the eos ids are kept as a cpu tensor and moved to `input_ids.device` at each call.

Source: https://github.com/huggingface/transformers/pull/29459
"Move `eos_token_id` to stopping criteria": the criteria stores `self.eos_token_id = torch.tensor(eos_token_id)`
(a cpu tensor, built once) and checks `torch.isin(input_ids[:, -1], self.eos_token_id.to(input_ids.device))`,
so a generation on the GPU works. Look-alike: a cpu tensor held by a helper of a cuda model, that runs.
Stand-in: a tiny causal LM on cuda:0 and a greedy loop with the stopping criteria.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EOSTokenCriteria:
    def __init__(self, eos_token_id):
        if isinstance(eos_token_id, int):
            eos_token_id = [eos_token_id]
        self.eos_token_id = torch.tensor(eos_token_id)

    def __call__(self, input_ids, scores):
        return torch.isin(input_ids[:, -1], self.eos_token_id.to(input_ids.device))

class CausalLM(nn.Module):
    def __init__(self, vocab_size=60, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed_tokens(input_ids)))

model = CausalLM().to("cuda:0")
stopping_criteria = [EOSTokenCriteria(eos_token_id=[2, 32000 % 60])]
input_ids = torch.randint(3, 60, (2, 5)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    for _ in range(4):
        scores = model(input_ids)[:, -1, :]
        input_ids = torch.cat([input_ids, scores.argmax(-1, keepdim=True)], dim=-1)
        is_done = stopping_criteria[0](input_ids, scores)
print(input_ids.shape, is_done.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
