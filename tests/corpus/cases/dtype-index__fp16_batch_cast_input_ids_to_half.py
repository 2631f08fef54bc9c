"""fp16 DPO training: the mixed-precision input cast turns `input_ids` into half, the embedding rejects them.

Source: https://github.com/deepspeedai/DeepSpeed/issues/5701
With fp16 enabled, the engine cast every floating-or-not tensor of the batch to half before the
forward, so `input_ids` reached `embed_tokens` as a HalfTensor and F.embedding raised "Expected
tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got
torch.cuda.HalfTensor". Only the float inputs should be cast. The engine's cast is reduced to the
user-visible batch conversion; run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layer = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        h = self.embed_tokens(input_ids) * attention_mask[..., None]
        return self.lm_head(torch.tanh(self.layer(h)))

model = TinyCausalLM().half()
batch = {"input_ids": torch.randint(0, 100, (2, 7)),
         "attention_mask": torch.ones(2, 7, dtype=torch.long)}
# the fp16 engine's input cast: every tensor of the batch to half
batch = {k: v.half() for k, v in batch.items()}
'''
CELL = '''
logits = model(**batch)
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types"
CULPRITS = ["batch['input_ids']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["input_ids"] = batch["input_ids"].long()
'''
REFERENCE_EDIT = None
CLEAN = False
