"""GPTBigCode with SDPA: the attention mask is cast to `self.wte.weight.dtype` (fp16 weights kept) while the query runs in float32.

Source: https://github.com/huggingface/optimum-intel/pull/1098
Exporting WizardCoder-15B (gpt_bigcode) failed with "Expected attn_mask dtype to be bool or float or
to match query dtype, but got attn_mask.dtype: c10::Half and query.dtype: float". The model is loaded
keeping its fp16 weights, and `GPTBigCodeModel.forward` converts the boolean mask to a float mask of
`dtype = self.wte.weight.dtype` (transformers 4.46, L916), while the attention itself computes in
float32 (the export executes those ops in fp32). The PR makes the mask follow the activations'
dtype. Stand-in: a one-layer GPTBigCode (multi-query SDPA attention) whose token embedding keeps the
checkpoint's fp16 and whose activations are float32.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class GPTBigCodeAttention(nn.Module):
    def __init__(self, embed_dim=64, num_heads=4):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.c_attn = nn.Linear(embed_dim, embed_dim + 2 * self.head_dim)
        self.c_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, hidden_states, attention_mask):
        b, t, _ = hidden_states.shape
        query, key_value = self.c_attn(hidden_states).split((self.num_heads * self.head_dim, 2 * self.head_dim), dim=2)
        query = query.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        key, value = key_value.unsqueeze(1).split(self.head_dim, dim=-1)
        attn = F.scaled_dot_product_attention(query, key.expand(-1, self.num_heads, -1, -1),
                                              value.expand(-1, self.num_heads, -1, -1), attn_mask=attention_mask)
        return self.c_proj(attn.transpose(1, 2).reshape(b, t, -1))

class GPTBigCodeModel(nn.Module):
    def __init__(self, vocab_size=100, n_positions=64, embed_dim=64):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, embed_dim)
        self.wpe = nn.Embedding(n_positions, embed_dim)
        self.attn = GPTBigCodeAttention(embed_dim)
        self.ln_f = nn.LayerNorm(embed_dim)
        self.register_buffer("bias", torch.tril(torch.ones((n_positions, n_positions), dtype=torch.bool)), persistent=False)

    def forward(self, input_ids, attention_mask):
        b, t = input_ids.shape
        position_ids = torch.arange(t, device=input_ids.device).unsqueeze(0)
        hidden_states = self.wte(input_ids).float() + self.wpe(position_ids)   # export runs these in fp32
        self_attention_mask = self.bias[None, :t, :t] & attention_mask.bool()[:, None, :]
        self_attention_mask = self_attention_mask.unsqueeze(1)
        # SDPA with a custom mask is much faster in fp16/fp32 dtype rather than bool. Cast here to floating point.
        dtype = self.wte.weight.dtype
        min_dtype = torch.finfo(dtype).min
        self_attention_mask = torch.where(
            self_attention_mask,
            torch.full([], 0.0, dtype=dtype, device=self_attention_mask.device),
            torch.full([], min_dtype, dtype=dtype, device=self_attention_mask.device),
        )
        hidden_states = hidden_states + self.attn(hidden_states, self_attention_mask)
        return self.ln_f(hidden_states)

model = GPTBigCodeModel().eval()
model.wte.to(torch.float16)        # loaded with torch_dtype="auto": checkpoint fp16 weights kept
input_ids = torch.randint(0, 100, (2, 9))
attention_mask = torch.ones(2, 9, dtype=torch.long)
'''
CELL = '''
with torch.no_grad():
    out = model(input_ids, attention_mask)
'''
EXPECT_ERROR = "Expected attn_mask dtype to be bool or float or to match query dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype = self.wte.weight.dtype", "dtype = hidden_states.dtype")
CLEAN = False
