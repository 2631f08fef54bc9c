"""unsloth chat-template stopping criterion: the stop token is built on the CPU and moved to `input_ids.device` on the first call.

Source: https://github.com/unslothai/unsloth/pull/10684
"remove CUDA hardcoded device from stopping criteria": `StoppingCriteriaSub` used to build its stop
token with `device="cuda"`; the merged version builds it on the CPU and, in `__call__`, "lazily
move[s] the stop token to `input_ids.device` only when they differ (a one-time move, cached
thereafter)". Look-alike: a CPU tensor held by a helper object beside a GPU model, moved by the
helper itself. Stand-in: the criterion and a greedy generate loop over a toy LM on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class StoppingCriteriaSub:
    def __init__(self, stop_token_ids, encounters=1):
        self.stop_token = torch.tensor(stop_token_ids)
        self.encounters = encounters

    def __call__(self, input_ids, scores=None, **kwargs):
        if self.stop_token.device != input_ids.device:
            self.stop_token = self.stop_token.to(input_ids.device)
        n = self.stop_token.shape[0]
        tail = input_ids.narrow(1, input_ids.shape[1] - n, n)
        return (tail == self.stop_token.view(1, -1)).sum(-1) == n

class ToyLM(nn.Module):
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.h(self.wte(input_ids))))

model = ToyLM().to("cuda:0").eval()
stopping = StoppingCriteriaSub([13, 2])   # tokenizer("\\n<eos>").input_ids
input_ids = torch.randint(3, 50, (1, 6)).to("cuda:0")
'''
CELL = '''
done = torch.zeros(1, dtype=torch.bool, device=input_ids.device)
for _ in range(4):
    next_token = model(input_ids).select(1, -1).argmax(-1, keepdim=True)
    input_ids = torch.cat([input_ids, next_token], dim=-1)
    done = done | stopping(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
