"""PEFT LoRA model on the GPU: `model.generate(**batch, do_sample=True)` with the tokenizer's `batch` still on the CPU.

Source: https://github.com/huggingface/peft/issues/81
"Cannot generate w/ do_sample=True on a LoRA model": the reporter tokenized a prompt with
`return_tensors='pt'` and generated from the LoRA-wrapped causal LM (loaded onto the GPU). younesbelkada:
"you need to put your `input_ids` in the correct device, calling `generate` with `input_ids.to(0)`
should fix your issue"; the reporter: "Yep, a `batch.to('cuda')` did the trick." Stand-in: a
BatchEncoding-like dict with `.to()`, a tiny causal LM with a LoRA-wrapped projection and a sampling
`generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class LoraLinear(nn.Module):
    def __init__(self, base, r=8, lora_alpha=16):
        super().__init__()
        self.base_layer = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        self.scaling = lora_alpha / r

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

class CausalLM(nn.Module):
    def __init__(self, vocab_size=120, hidden=32):
        super().__init__()
        self.embed_in = nn.Embedding(vocab_size, hidden)
        self.query_key_value = LoraLinear(nn.Linear(hidden, hidden))
        self.embed_out = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        h = self.embed_in(input_ids)
        h = h + torch.tanh(self.query_key_value(h))
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return self.embed_out(h)

    def generate(self, input_ids, attention_mask=None, max_new_tokens=10, do_sample=False):
        for _ in range(max_new_tokens):
            logits = self(input_ids, attention_mask)[:, -1, :]
            next_token = logits.softmax(-1).argmax(-1, keepdim=True)   # sampling stand-in
            input_ids = torch.cat([input_ids, next_token], dim=-1)
            if attention_mask is not None:
                attention_mask = torch.cat([attention_mask, torch.ones_like(next_token)], dim=-1)
        return input_ids

model = CausalLM().to("cuda:0")          # get_peft_model(...) on a model loaded onto the GPU
batch = BatchEncoding(input_ids=torch.tensor([[12, 55, 7, 91, 3]]),
                      attention_mask=torch.ones(1, 5, dtype=torch.long))   # tokenizer(prompt, return_tensors='pt')
'''
CELL = '''
output_tokens = model.generate(**batch, max_new_tokens=10, do_sample=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
