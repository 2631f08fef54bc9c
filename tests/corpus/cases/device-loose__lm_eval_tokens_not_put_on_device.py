"""Evaluation harness with `--device cuda`: the request tokens are never put on the device.

Source: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/72
"Put tokens on `device`": the model was loaded on the user-specified device, but the
loglikelihood loop built its batch with `torch.tensor(...)` from the token lists and called the
model on it directly, which raised "found at least two devices, cuda:0 and cpu! (when checking
argument for argument index in method wrapper__index_select)".
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class GPT2Tiny(nn.Module):
    def __init__(self, vocab=80, dim=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.h = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.h(self.wte(input_ids))))

device = "cuda:0"
model = GPT2Tiny().to(device).eval()
requests = [([3, 17, 22, 9], [40, 41]), ([5, 6, 7, 8], [12, 13])]
inps = torch.tensor([context + continuation for context, continuation in requests])
'''
CELL = '''
with torch.no_grad():
    multi_logits = torch.log_softmax(model(inps), dim=-1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inps"]
FIX = "namespace"
REFERENCE_FIX = '''
inps = inps.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
