"""HELM's HuggingFace client: a multi-token stop sequence kept as a python list and turned into a tensor on `input_ids.device` at each step.

Source: https://github.com/stanford-crfm/helm/pull/1892
`StopAtSpecificTokenCriteria` holds `stop_sequence` as a list of ids and, in `__call__`, builds
`torch.tensor(self.stop_sequence, device=input_ids.device, dtype=input_ids.dtype)` before comparing it
with the last generated ids. Look-alike: a tensor created inside a generation helper with no device
of its own, which takes it from the input; it runs on the GPU.
Stand-in: the criteria, a tiny causal LM on cuda:0 and a greedy loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class StopAtSpecificTokenCriteria:
    def __init__(self, stop_sequence=None):
        self.stop_sequence = stop_sequence

    def __call__(self, input_ids, scores, **kwargs):
        stop_sequence_tensor = torch.tensor(self.stop_sequence, device=input_ids.device, dtype=input_ids.dtype)
        current_sequence = input_ids[:, -len(self.stop_sequence):]
        return torch.all(current_sequence == stop_sequence_tensor)

class CausalLM(nn.Module):
    def __init__(self, vocab_size=80, hidden=32):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.wte(input_ids)))

model = CausalLM().to("cuda:0")
criteria = StopAtSpecificTokenCriteria(stop_sequence=[13, 13])
encoded_input = {"input_ids": torch.randint(0, 80, (1, 6)).to("cuda:0")}
'''
CELL = '''
input_ids = encoded_input["input_ids"]
with torch.no_grad():
    for _ in range(4):
        scores = model(input_ids)[:, -1, :]
        input_ids = torch.cat([input_ids, scores.argmax(-1, keepdim=True)], dim=-1)
        stop = criteria(input_ids, scores)
print(input_ids.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
