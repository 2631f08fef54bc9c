"""Huginn (recurrent-depth LM) batched inference: the tokenizer's int64 attention_mask reaches SDPA as attn_mask.

Source: https://github.com/seal-rg/recurrent-pretraining/issues/23
Calling the Huginn-0125 model with a padded tokenizer batch (`model(**inputs)`) failed with
"Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype:
long": the model hands `attention_mask` straight to `F.scaled_dot_product_attention`. The reporter's
working call (issue #32) passes a boolean mask shaped for the attention matrix:
`inputs["attention_mask"].unsqueeze(1).unsqueeze(2) == 1`. Stand-in: a one-block causal LM with the
same pass-through, and the tokenizer's output as a dict.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class RavenBlock(nn.Module):
    def __init__(self, dim=32, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attention_mask=None):
        B, S, D = x.shape
        q, k, v = self.qkv(x).view(B, S, 3, self.n_heads, D // self.n_heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)
        return x + self.proj(y.transpose(1, 2).reshape(B, S, D))

class RavenForCausalLM(nn.Module):
    """Huginn-0125's raven_modeling_minimal.py (reduced): attention_mask is passed through as is."""
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.core_block = RavenBlock(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask=None, num_steps=4, output_hidden_states=False):
        x = self.wte(input_ids)
        for _ in range(num_steps):                      # the recurrent core
            x = self.core_block(x, attention_mask=attention_mask)
        return {"logits": self.lm_head(x), "hidden_states": x if output_hidden_states else None}

model = RavenForCausalLM().eval()
# tokenizer(queries, return_tensors="pt", padding="longest", return_token_type_ids=False)
inputs = {
    "input_ids": torch.tensor([[5, 17, 42, 8, 9, 3], [0, 0, 12, 61, 7, 3]]),
    "attention_mask": torch.tensor([[1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]]),
}
'''
CELL = '''
outputs = model(**inputs, output_hidden_states=True)
'''
EXPECT_ERROR = "Expected attn_mask dtype to be bool or float or to match query dtype"
CULPRITS = ["inputs['attention_mask']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["attention_mask"] = inputs["attention_mask"].unsqueeze(1).unsqueeze(2) == 1
'''
REFERENCE_EDIT = None
CLEAN = False
