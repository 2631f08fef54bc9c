"""Huginn batched inference done right: a bfloat16 model, int64 token ids, and a bool padding mask built from the int64 one.

Source: https://github.com/seal-rg/recurrent-pretraining/issues/32
To run Huginn-0125 with batch size > 1 the reporter keeps `return_attn=False` (so the model calls
`F.scaled_dot_product_attention`) and aligns the tokenizer's int64 `attention_mask` with the
attention matrix as a bool mask: `inputs["attention_mask"].unsqueeze(dim=1).unsqueeze(dim=2) == 1`.
The bf16 queries, bool mask and int64 ids are all as SDPA and the embedding expect; the int64
mask left in `inputs` is not passed. Stand-in: a one-block causal LM with the model's
pass-through of `attention_mask`, in bfloat16, and the tokenizer's output as a dict.
"""

SIM = "cpu"
FAMILY = "clean"
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
        for _ in range(num_steps):
            x = self.core_block(x, attention_mask=attention_mask)
        return {"logits": self.lm_head(x), "hidden_states": x if output_hidden_states else None}

# AutoModelForCausalLM.from_pretrained("tomg-group-umd/huginn-0125", torch_dtype=torch.bfloat16)
model = RavenForCausalLM().to(torch.bfloat16).eval()
# tokenizer(text=text, return_tensors="pt", add_special_tokens=True, padding="longest",
#           return_token_type_ids=False).to(model.device)
inputs = {
    "input_ids": torch.tensor([[5, 17, 42, 8, 9, 3], [0, 0, 12, 61, 7, 3]]),
    "attention_mask": torch.tensor([[1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]]),
}
attention_mask = inputs["attention_mask"].unsqueeze(dim=1).unsqueeze(dim=2) == 1
'''
CELL = '''
with torch.no_grad():
    outputs = model(input_ids=inputs["input_ids"], attention_mask=attention_mask,
                    num_steps=8, output_hidden_states=True)
last_token_logits = outputs["logits"][:, -1, :].float()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
