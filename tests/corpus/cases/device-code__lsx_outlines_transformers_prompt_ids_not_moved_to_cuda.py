"""outlines: `outlines.models.transformers(..., device="cuda")` puts the model on the GPU but the encoded prompt stays on the cpu.

Source: https://github.com/dottxt-ai/outlines/issues/656
The user changed the README example to `outlines.models.transformers("mistralai/Mistral-7B-Instruct-v0.2",
device="cuda")` and called `outlines.generate.json(model, Character)("Give me a character description")`;
generation failed with a cuda/cpu mismatch: "the tokenizer is not sending the prompt to the CUDA".
The wrapper's `generate` encodes the prompt with `return_tensors="pt"` and feeds `input_ids` /
`attention_mask` to the model without moving them to `self.device`.
Stand-in: the `Transformers` wrapper, a toy tokenizer, a tiny causal LM and a greedy JSON generator
(the structured-generation mask is left out; `rng` is dropped: generators on cuda are not simulated).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ToyTokenizer:
    def encode(self, prompt):
        ids = torch.tensor([[sum(map(ord, w)) % 97 for w in prompt.split()]])
        return ids, torch.ones_like(ids)

class MistralForCausalLM(nn.Module):
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.mlp = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        h = self.embed_tokens(input_ids)
        return self.lm_head(torch.nn.functional.silu(self.mlp(h)))

class Transformers:
    def __init__(self, model, tokenizer, device):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.tokenizer = tokenizer

    def generate(self, prompt, max_tokens=6):
        input_ids, attention_mask = self.tokenizer.encode(prompt)
        for _ in range(max_tokens):
            logits = self.model(input_ids, attention_mask)[:, -1, :]
            next_token = logits.argmax(dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
            attention_mask = torch.cat([attention_mask, torch.ones_like(next_token)], dim=-1)
        return input_ids

def transformers(model_name, device=None):
    return Transformers(MistralForCausalLM(), ToyTokenizer(), device)

class JsonGenerator:
    def __init__(self, model, schema):
        self.model, self.schema = model, schema

    @torch.no_grad()
    def __call__(self, prompt, rng=None):
        return self.model.generate(prompt)

model = transformers("mistralai/Mistral-7B-Instruct-v0.2", device="cuda:0")
generator = JsonGenerator(model, "Character")
'''
CELL = '''
character = generator("Give me a character description")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_ids, attention_mask = self.tokenizer.encode(prompt)",
                  "input_ids, attention_mask = (t.to(self.device) for t in self.tokenizer.encode(prompt))")
CLEAN = False
