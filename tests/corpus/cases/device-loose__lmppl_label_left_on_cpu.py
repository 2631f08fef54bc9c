"""Perplexity scorer: the encoded inputs go to the model's device, the label tensor does not.

Source: https://github.com/asahi417/lmppl/pull/13
"add `to(self.device)` in `label` to avoid ERROR: tensor on different devices when cal loss":
the scorer moved the tokenized batch to `self.device` before the forward, but built the shifted
`label` tensor from the CPU `input_ids` and passed it straight to the token-level cross entropy
next to the cuda logits. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class TinyLM(nn.Module):
    def __init__(self, vocab=60, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask):
        return self.head(self.embed(input_ids) * attention_mask[..., None])

device = torch.device("meta")
model = TinyLM().to(device)
loss_fct = nn.CrossEntropyLoss(reduction="none")
encode = {"input_ids": torch.randint(1, 60, (3, 9)), "attention_mask": torch.ones(3, 9, dtype=torch.long)}
label = encode["input_ids"][:, 1:].clone()      # built from the CPU batch
encode = {k: v.to(device) for k, v in encode.items()}
'''
CELL = '''
with torch.no_grad():
    logits = model(**encode)[:, :-1, :]
loss = loss_fct(logits.reshape(-1, logits.size(-1)), label.reshape(-1))
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
