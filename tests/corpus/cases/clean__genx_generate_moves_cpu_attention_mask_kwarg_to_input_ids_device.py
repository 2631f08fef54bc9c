"""transformers `generate` moves tensors passed in `generate_kwargs` (a CPU attention mask) to the device of `input_ids`.

Source: https://github.com/huggingface/transformers/pull/32559
"ensure tensors in generate_kwargs to be on the same device as input_ids": `generate` now moves the
tensor-valued model kwargs (e.g. an `attention_mask` left on the CPU by the caller) to
`input_ids.device` before the decoding loop. Look-alike: a CPU-side mask beside cuda:0 input ids
and model, handled by the library on purpose. Stand-in: a toy causal LM whose `generate` does that
move and a greedy loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ToyCausalLM(nn.Module):
    def __init__(self, vocab=60, d=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        x = torch.tanh(self.h(self.wte(input_ids))) * attention_mask.unsqueeze(-1)
        return self.lm_head(x)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=4, **generate_kwargs):
        model_kwargs = {k: (v.to(input_ids.device) if isinstance(v, torch.Tensor) else v)
                        for k, v in generate_kwargs.items()}
        attention_mask = model_kwargs["attention_mask"]
        for _ in range(max_new_tokens):
            logits = self(input_ids, attention_mask).select(1, -1)
            next_tokens = logits.argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_tokens], dim=-1)
            attention_mask = torch.cat([attention_mask, torch.ones_like(next_tokens)], dim=-1)
        return input_ids

model = ToyCausalLM().to("cuda:0").eval()
input_ids = torch.randint(1, 60, (2, 5)).to("cuda:0")
attention_mask = torch.ones(2, 5, dtype=torch.long)     # left on the CPU by the caller
'''
CELL = '''
output_ids = model.generate(input_ids, max_new_tokens=4, attention_mask=attention_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
