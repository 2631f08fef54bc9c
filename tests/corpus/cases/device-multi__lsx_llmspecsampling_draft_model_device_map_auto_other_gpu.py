"""LLMSpeculativeSampling: the draft model loaded with device_map="auto" lands on another GPU than the prompt.

Source: https://github.com/feifeibear/LLMSpeculativeSampling/issues/21
`main.py` loads the approximation (draft) model and the target model with
`AutoModelForCausalLM.from_pretrained(..., device_map="auto")` and encodes the prompt with
`.to(torch_device)`; on a multi-GPU box the draft model was placed on another card and
`speculative_sampling` failed in the draft's embedding ("cuda:3 and cuda:1 ... index_select").
The reporter's fix: drop `device_map="auto"` and move the model with `.to(torch_device)`.
Stand-in: tiny causal LMs, a loader that fills GPUs the way `device_map="auto"` did for the user
(target on cuda:0, draft on the next card), and the draft-then-verify loop.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class CausalLM(nn.Module):
    def __init__(self, vocab_size=64, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.mlp = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.mlp(self.embed_tokens(input_ids))))

_next_gpu = [0]
def from_pretrained(name, device_map=None):
    hidden = 64 if "7b" in name else 16
    model = CausalLM(hidden=hidden)
    if device_map == "auto":                   # accelerate put each model on the card with room left
        model = model.to(f"cuda:{_next_gpu[0]}")
        _next_gpu[0] += 1
    return model

@torch.no_grad()
def speculative_sampling(prefix, approx_model, target_model, max_len, gamma=4):
    seq_len = prefix.shape[1]
    T = seq_len + max_len
    while prefix.shape[1] < T:
        x = prefix
        for _ in range(gamma):
            q = approx_model(x)[:, -1, :].softmax(-1)
            x = torch.cat([x, q.argmax(-1, keepdim=True)], dim=1)
        p = target_model(x)[:, -1, :].softmax(-1)
        prefix = torch.cat([x, p.argmax(-1, keepdim=True)], dim=1)
    return prefix

torch_device = "cuda:0"
approx_model_name = "bloom-560m"
target_model_name = "bloom-7b1"
large_model = from_pretrained(target_model_name, device_map="auto")
small_model = from_pretrained(approx_model_name, device_map="auto")
input_ids = torch.randint(0, 64, (1, 5)).to(torch_device)      # tokenizer.encode(input_text, return_tensors='pt').to(torch_device)
'''
CELL = '''
output = speculative_sampling(input_ids, small_model, large_model, max_len=8, gamma=4)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["small_model"]
FIX = "namespace"
REFERENCE_FIX = '''
small_model = small_model.to(torch_device)
'''
REFERENCE_EDIT = None
CLEAN = False
