"""Look-alike: BLOOM builds its ALiBi tensor in float32 from an int64 mask in every forward of a float16 model.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/bloom/modeling_bloom.py
(`build_alibi_tensor`, the `alibi.baddbmm` scores of `BloomAttention.forward`).
`build_alibi_tensor` makes a float32 slope base with `torch.tensor(..., dtype=torch.float32)`,
int32 powers with `torch.arange(...)` and positions from the user's int64 `attention_mask`
(`cumsum(-1)`, so left padding is respected), all inside forward of a float16 model: fresh tensors
of three dtypes feeding `baddbmm` with half queries, which is how ALiBi dtype bugs usually look.
But the bias is cast with `.to(dtype)` (the hidden states' dtype) before `baddbmm`, the softmax
runs in float32 and is cast back to the values' dtype, and everything is made on the mask's
device. Stand-in: a one-layer BLOOM with the library's alibi builder and attention score
computation; CPU, dtype look-alike only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

def build_alibi_tensor(attention_mask, num_heads, dtype):
    batch_size, seq_length = attention_mask.shape
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))), device=attention_mask.device, dtype=torch.float32)
    powers = torch.arange(1, 1 + closest_power_of_2, device=attention_mask.device, dtype=torch.int32)
    slopes = torch.pow(base, powers)
    if closest_power_of_2 != num_heads:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))), device=attention_mask.device, dtype=torch.float32)
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        extra_powers = torch.arange(1, 1 + 2 * num_remaining_heads, 2, device=attention_mask.device, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]
    alibi = slopes[..., None] * arange_tensor
    return alibi.reshape(batch_size * num_heads, 1, seq_length).to(dtype)

class BloomAttention(nn.Module):
    def __init__(self, hidden_size=64, n_head=8):
        super().__init__()
        self.num_heads, self.head_dim = n_head, hidden_size // n_head
        self.inv_norm_factor = 1.0 / math.sqrt(self.head_dim)
        self.beta = 1.0
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden_states, alibi, attention_mask):
        b, q_len, _ = hidden_states.shape
        fused = self.query_key_value(hidden_states).view(b, q_len, self.num_heads, 3, self.head_dim)
        q, k, v = fused.unbind(dim=3)
        q = q.transpose(1, 2).reshape(b * self.num_heads, q_len, self.head_dim)
        k = k.permute(0, 2, 3, 1).reshape(b * self.num_heads, self.head_dim, q_len)
        v = v.transpose(1, 2).reshape(b * self.num_heads, q_len, self.head_dim)
        matmul_result = alibi.baddbmm(batch1=q, batch2=k, beta=self.beta, alpha=self.inv_norm_factor)
        attn_weights = matmul_result.view(b, self.num_heads, q_len, q_len)
        attn_weights = attn_weights.masked_fill(attention_mask, torch.finfo(attn_weights.dtype).min)
        attn_probs = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(v.dtype)
        context = torch.bmm(attn_probs.view(b * self.num_heads, q_len, q_len), v)
        context = context.view(b, self.num_heads, q_len, self.head_dim).transpose(1, 2).reshape(b, q_len, -1)
        return self.dense(context)

class BloomModel(nn.Module):
    def __init__(self, vocab=100, hidden_size=64, n_head=8):
        super().__init__()
        self.num_heads = n_head
        self.word_embeddings = nn.Embedding(vocab, hidden_size)
        self.word_embeddings_layernorm = nn.LayerNorm(hidden_size)
        self.input_layernorm = nn.LayerNorm(hidden_size)
        self.self_attention = BloomAttention(hidden_size, n_head)
        self.ln_f = nn.LayerNorm(hidden_size)

    def forward(self, input_ids, attention_mask):
        hidden_states = self.word_embeddings_layernorm(self.word_embeddings(input_ids))
        seq_length = input_ids.shape[1]
        alibi = build_alibi_tensor(attention_mask, self.num_heads, dtype=hidden_states.dtype)
        causal = torch.ones((seq_length, seq_length), dtype=torch.bool, device=hidden_states.device).triu(1)
        padding = ~attention_mask.bool()[:, None, None, :]
        mask = causal[None, None, :, :] | padding
        hidden_states = hidden_states + self.self_attention(self.input_layernorm(hidden_states), alibi, mask)
        return self.ln_f(hidden_states)

model = BloomModel().half()          # torch_dtype=torch.float16
model.eval()
# tokenizer(prompts, padding=True, return_tensors="pt") with left padding: int64 ids and mask
inputs = {"input_ids": torch.randint(0, 100, (2, 6)),
          "attention_mask": torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])}
'''
CELL = '''
with torch.no_grad():
    hidden = model(**inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
