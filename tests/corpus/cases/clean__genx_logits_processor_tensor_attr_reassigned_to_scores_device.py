"""transformers logits processors keep their token tensors on the CPU and re-assign them to the scores' device in `__call__`.

Source: https://github.com/huggingface/transformers/pull/38558
"Added guards against device mismatch errors in some LogitsProcessor classes": processors with a
`torch.Tensor` attribute (built on the CPU by default) now re-assign it to `scores.device` each
call ("if the scores stay on the same device ... this becomes a no-op"). Look-alike: a processor
whose `eos_token_id` tensor sits on the CPU beside a cuda:0 model, used in a hand-written sampling
loop; the processor moves it itself. Stand-in: MinNewTokensLength-style processor and a toy LM.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MinLengthLogitsProcessor:
    def __init__(self, min_length, eos_token_id, device="cpu"):
        if not isinstance(eos_token_id, torch.Tensor):
            eos_token_id = torch.tensor(eos_token_id, device=device)
        self.min_length = min_length
        self.eos_token_id = eos_token_id

    def __call__(self, input_ids, scores):
        self.eos_token_id = self.eos_token_id.to(scores.device)
        vocab_tensor = torch.arange(scores.shape[-1], device=scores.device)
        eos_token_mask = (vocab_tensor.unsqueeze(-1) == self.eos_token_id.view(1, -1)).sum(-1) > 0
        if input_ids.shape[-1] < self.min_length:
            scores = torch.where(eos_token_mask, -float("inf"), scores)
        return scores

class ToyLM(nn.Module):
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.h(self.wte(input_ids))))

model = ToyLM().to("cuda:0").eval()
processor = MinLengthLogitsProcessor(min_length=6, eos_token_id=[2, 7])
input_ids = torch.randint(3, 50, (2, 4)).to("cuda:0")
'''
CELL = '''
for _ in range(4):
    scores = model(input_ids).select(1, -1)
    scores = processor(input_ids, scores)
    next_tokens = scores.argmax(-1, keepdim=True)
    input_ids = torch.cat([input_ids, next_tokens], dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
