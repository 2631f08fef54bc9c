"""A half-precision BART's attention upcasts the scores for the softmax and never casts back.

Source: https://github.com/huggingface/transformers/issues/3249
`model = BartModel(BartConfig()).cuda().half()` with a LongTensor input failed inside the
attention at `attn_output = torch.bmm(attn_probs, v)` (dtype mismatch): the attention computed
the softmax in float32 (`F.softmax(attn_weights.float(), dim=-1)`) for stability, so the probabilities
were float32 while `v` was float16. The user's input was right; the model code needed to cast
the probabilities back (`.type_as(attn_weights)`), as the fix did. Stand-in: one self-attention.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class SelfAttention(nn.Module):
    def __init__(self, embed_dim=16, num_heads=2):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def _shape(self, t, bsz):
        return t.view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2).reshape(bsz * self.num_heads, -1, self.head_dim)

    def forward(self, x):
        bsz, tgt_len, embed_dim = x.shape
        q, k, v = (self._shape(p(x), bsz) for p in (self.q_proj, self.k_proj, self.v_proj))
        attn_weights = torch.bmm(q, k.transpose(1, 2)) * self.head_dim ** -0.5
        attn_weights = F.softmax(attn_weights.float(), dim=-1)
        attn_probs = attn_weights
        attn_output = torch.bmm(attn_probs, v)
        attn_output = attn_output.view(bsz, self.num_heads, tgt_len, self.head_dim).transpose(1, 2).reshape(bsz, tgt_len, embed_dim)
        return self.out_proj(attn_output)

class BartModel(nn.Module):
    def __init__(self, vocab_size=100, d_model=16):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.self_attn = SelfAttention(d_model)

    def forward(self, input_ids):
        return self.self_attn(self.shared(input_ids))

model = BartModel().half()
cur_inputs = torch.zeros(4, 16, dtype=torch.long)
'''
CELL = '''
cur_res = model(cur_inputs)
'''
EXPECT_ERROR = "expected m1 and m2 to have the same dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "attn_probs = attn_weights\n",
    "attn_probs = attn_weights.type_as(v)\n",
)
CLEAN = False
