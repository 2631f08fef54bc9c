"""outlines: the transformers wrapper pins the next-token logits to device 0 while the model runs on another GPU.

Source: https://github.com/dottxt-ai/outlines/pull/910
"Make sure that logits are always on the device where the model weights are": the model was loaded
on a second GPU, but the wrapper moved the logits it returns to device 0, so combining them with
the generator's token mask (built on the model's device) failed. The PR keeps the logits on the
model's device.
Stand-in: the `Transformers` wrapper's forward, a tiny causal LM on cuda:1 and a masked greedy step.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CausalLM(nn.Module):
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed_tokens(input_ids)))

class Transformers:
    def __init__(self, model, device):
        self.device = torch.device(device)
        self.model = model.to(self.device)

    @torch.no_grad()
    def __call__(self, input_ids):
        logits = self.model(input_ids)
        next_token_logits = logits[..., -1, :].to("cuda:0")
        return next_token_logits

def sequence_step(model, input_ids, allowed_mask):
    logits = model(input_ids)
    biased_logits = torch.where(allowed_mask, logits, -float("inf"))
    return biased_logits.argmax(dim=-1, keepdim=True)

model = Transformers(CausalLM(), device="cuda:1")
input_ids = torch.randint(0, 100, (1, 5)).to("cuda:1")
allowed_mask = torch.ones(1, 100, dtype=torch.bool, device=model.device)     # FSM-allowed tokens
'''
CELL = '''
next_token = sequence_step(model, input_ids, allowed_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('next_token_logits = logits[..., -1, :].to("cuda:0")',
                  'next_token_logits = logits[..., -1, :].to(self.device)')
CLEAN = False
