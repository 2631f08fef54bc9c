"""Outlines' transformers wrapper: `encode` returns the tokenizer's CPU tensors to a sequence generator running a CUDA model.

Source: https://github.com/dottxt-ai/outlines/pull/167
"Use PyTorch instead of NumPy" switched `Transformers.encode` to `return_tensors="pt"` and
returned `output["input_ids"], output["attention_mask"]` as they came from the tokenizer; the
reviewer ran it with the model on the GPU and it failed because "input tokens are not on gpu",
proposing `return output["input_ids"].to(device), output["attention_mask"].to(device)`.
Stand-in: the wrapper class with a toy tokenizer and causal LM, and a greedy `Sequence.__call__`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ToyTokenizer:
    def __call__(self, prompt, padding=True, return_tensors="pt"):
        prompts = [prompt] if isinstance(prompt, str) else prompt
        ids = [[(sum(map(ord, w)) % 50) + 1 for w in p.split()] for p in prompts]
        n = max(map(len, ids))
        input_ids = torch.tensor([[0] * (n - len(r)) + r for r in ids])
        attention_mask = (input_ids != 0).long()
        return {"input_ids": input_ids, "attention_mask": attention_mask}

class CausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        x = torch.tanh(self.h(self.wte(input_ids))) * attention_mask[..., None]
        return self.lm_head(x)

class Transformers:
    def __init__(self, model, tokenizer, device):
        self.device = device
        self.model = model.to(device)
        self.tokenizer = tokenizer

    def __call__(self, input_ids, attention_mask):
        return self.model(input_ids, attention_mask)[:, -1, :]

    def encode(self, prompt, **kwargs):
        kwargs["padding"] = True
        kwargs["return_tensors"] = "pt"
        output = self.tokenizer(prompt, **kwargs)
        return output["input_ids"], output["attention_mask"]

class Sequence:
    def __init__(self, model, max_tokens=5):
        self.model, self.max_tokens = model, max_tokens

    def __call__(self, prompt, samples=1):
        token_ids, attention_mask = self.model.encode(prompt)
        for _ in range(self.max_tokens):
            next_token_logits = self.model(token_ids, attention_mask)
            next_token_ids = next_token_logits.argmax(-1, keepdim=True)
            token_ids = torch.cat([token_ids, next_token_ids], dim=-1)
            attention_mask = torch.cat([attention_mask, torch.ones_like(next_token_ids)], dim=-1)
        return token_ids

model = Transformers(CausalLM(), ToyTokenizer(), device="cuda:0")
complete = Sequence(model)
'''
CELL = '''
answer = complete("The capital of France is")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["token_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('return output["input_ids"], output["attention_mask"]',
                  'return output["input_ids"].to(self.device), output["attention_mask"].to(self.device)')
CLEAN = False
