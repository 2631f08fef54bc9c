"""FSDP MixedPrecision(param_dtype=bfloat16) on a BERT model: the extended attention mask is built in float32 and promotes the attention scores, so `matmul(attention_probs, value_layer)` mixes float and bf16.

Source: https://github.com/pytorch/pytorch/issues/75676
Wrapping a HF BERT model in FSDP with `mixed_precision=MixedPrecision(param_dtype=torch.bfloat16, ...)`
failed in `BertSelfAttention.forward` at `context_layer = torch.matmul(attention_probs, value_layer)`:
"expected scalar type BFloat16 but found Float". The layers compute in bf16, but the model builds
`extended_attention_mask` with `dtype=self.dtype`, the dtype of its first parameter, which FSDP keeps in
full precision (float32) outside the unsharded compute; `attention_scores + attention_mask` is promoted to
float32 and so is `attention_probs`. The fix discussed (transformers PR #16901) builds the mask in the
dtype of the activations (the embedding output) instead.
Stand-ins: a one-layer BERT; FSDP's mixed precision as pre/post hooks that cast each leaf module's
parameters to bf16 for its call and back to the fp32 master afterwards (CPU, dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class MixedPrecision:
    def __init__(self, param_dtype=None, reduce_dtype=None, buffer_dtype=None):
        self.param_dtype = param_dtype

def FullyShardedDataParallel(module, mixed_precision=None):
    # stand-in: params stay fp32 (full-precision shards); each leaf runs with its params cast to
    # param_dtype, then they are put back (reshard)
    dt = mixed_precision.param_dtype
    for leaf in module.modules():
        if list(leaf.children()) or not list(leaf.parameters(recurse=False)):
            continue
        def pre(mod, args, dt=dt):
            for p in mod.parameters(recurse=False):
                p.data = p.data.to(dt)
        def post(mod, args, out):
            for p in mod.parameters(recurse=False):
                p.data = p.data.to(torch.float32)
        leaf.register_forward_pre_hook(pre)
        leaf.register_forward_hook(post)
    return module

class BertSelfAttention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
    def transpose_for_scores(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.num_attention_heads, self.attention_head_size).permute(0, 2, 1, 3)
    def forward(self, hidden_states, attention_mask):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        context_layer = torch.matmul(attention_probs, value_layer)
        return context_layer.permute(0, 2, 1, 3).flatten(2)

class BertModel(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.attention = BertSelfAttention(hidden)
        self.output = nn.Linear(hidden, hidden)
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    def get_extended_attention_mask(self, attention_mask, dtype):
        extended_attention_mask = attention_mask[:, None, None, :].to(dtype=dtype)
        return (1.0 - extended_attention_mask) * torch.finfo(dtype).min
    def forward(self, input_ids, attention_mask):
        embedding_output = self.word_embeddings(input_ids)
        extended_attention_mask = self.get_extended_attention_mask(attention_mask, dtype=self.dtype)
        hidden = self.attention(embedding_output, extended_attention_mask)
        return self.output(hidden)

model = BertModel()
bfSixteen = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16,
                           buffer_dtype=torch.bfloat16)
model = FullyShardedDataParallel(model, mixed_precision=bfSixteen)
input_ids = torch.randint(0, 100, (2, 8))
attention_mask = torch.ones(2, 8, dtype=torch.long)
'''
CELL = '''
with torch.no_grad():
    output = model(input_ids, attention_mask)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.get_extended_attention_mask(attention_mask, dtype=self.dtype)",
                  "self.get_extended_attention_mask(attention_mask, dtype=embedding_output.dtype)")
CLEAN = False
