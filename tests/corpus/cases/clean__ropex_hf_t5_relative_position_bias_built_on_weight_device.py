"""Look-alike: T5's relative position buckets are built inside forward with `torch.arange`, on the bias table's device.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/t5/modeling_t5.py
(`T5Attention._relative_position_bucket`, `T5Attention.compute_bias`, the extended attention mask).
`compute_bias` creates `context_position` / `memory_position` with `torch.arange` at every call
and turns them into bucket indices for the `relative_attention_bias` embedding: tensors made in
forward next to a GPU model, the pattern of the old "T5 does not run on GPU" bug. Here they are
made with `device=self.relative_attention_bias.weight.device` (the scores' device), the padding
mask is extended from the user's `attention_mask` (moved with the batch), and the bucket math
stays on that device. Stand-in: a two-layer T5 encoder with the library's bucket/bias code and a
bare-bones attention.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class T5Attention(nn.Module):
    def __init__(self, d_model=32, n_heads=4, has_relative_attention_bias=False, is_decoder=False,
                 relative_attention_num_buckets=32, relative_attention_max_distance=128):
        super().__init__()
        self.is_decoder = is_decoder
        self.has_relative_attention_bias = has_relative_attention_bias
        self.relative_attention_num_buckets = relative_attention_num_buckets
        self.relative_attention_max_distance = relative_attention_max_distance
        self.n_heads, self.key_value_proj_dim = n_heads, d_model // n_heads
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)
        if self.has_relative_attention_bias:
            self.relative_attention_bias = nn.Embedding(self.relative_attention_num_buckets, self.n_heads)

    @staticmethod
    def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
        relative_buckets = 0
        if bidirectional:
            num_buckets //= 2
            relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
            relative_position = torch.abs(relative_position)
        else:
            relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
        max_exact = num_buckets // 2
        is_small = relative_position < max_exact
        relative_position_if_large = max_exact + (
            torch.log(relative_position.float() / max_exact)
            / math.log(max_distance / max_exact)
            * (num_buckets - max_exact)
        ).to(torch.long)
        relative_position_if_large = torch.min(
            relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
        relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
        return relative_buckets

    def compute_bias(self, query_length, key_length, device=None):
        if device is None:
            device = self.relative_attention_bias.weight.device
        context_position = torch.arange(query_length, dtype=torch.long, device=device)[:, None]
        memory_position = torch.arange(key_length, dtype=torch.long, device=device)[None, :]
        relative_position = memory_position - context_position
        relative_position_bucket = self._relative_position_bucket(
            relative_position, bidirectional=(not self.is_decoder),
            num_buckets=self.relative_attention_num_buckets,
            max_distance=self.relative_attention_max_distance)
        values = self.relative_attention_bias(relative_position_bucket)
        values = values.permute([2, 0, 1]).unsqueeze(0)
        return values

    def forward(self, hidden_states, mask=None, position_bias=None):
        b, n, _ = hidden_states.shape
        shape = lambda t: t.view(b, -1, self.n_heads, self.key_value_proj_dim).transpose(1, 2)
        q, k, v = shape(self.q(hidden_states)), shape(self.k(hidden_states)), shape(self.v(hidden_states))
        scores = torch.matmul(q, k.transpose(3, 2))
        if position_bias is None:
            position_bias = self.compute_bias(n, n, device=scores.device)
            if mask is not None:
                position_bias = position_bias + mask
        scores += position_bias
        attn_weights = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.matmul(attn_weights, v).transpose(1, 2).reshape(b, n, -1)
        return self.o(out), position_bias

class T5Block(nn.Module):
    def __init__(self, d_model=32, has_relative_attention_bias=False):
        super().__init__()
        self.layer_norm = nn.LayerNorm(d_model)
        self.SelfAttention = T5Attention(d_model, has_relative_attention_bias=has_relative_attention_bias)
        self.ff = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, hidden_states, attention_mask=None, position_bias=None):
        attn_out, position_bias = self.SelfAttention(self.layer_norm(hidden_states), mask=attention_mask,
                                                     position_bias=position_bias)
        hidden_states = hidden_states + attn_out
        return hidden_states + self.ff(hidden_states), position_bias

class T5EncoderModel(nn.Module):
    def __init__(self, vocab=100, d_model=32, num_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d_model)
        self.block = nn.ModuleList([T5Block(d_model, has_relative_attention_bias=bool(i == 0)) for i in range(num_layers)])
        self.final_layer_norm = nn.LayerNorm(d_model)

    def forward(self, input_ids, attention_mask):
        hidden_states = self.embed_tokens(input_ids)
        dtype = hidden_states.dtype
        extended_attention_mask = (1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min
        position_bias = None
        for layer_module in self.block:
            hidden_states, position_bias = layer_module(hidden_states, extended_attention_mask, position_bias)
        return self.final_layer_norm(hidden_states)

device = "cuda:0"
model = T5EncoderModel().to(device)
model.eval()
# tokenizer(["a short one", "a somewhat longer sentence"], padding=True, return_tensors="pt").to(device)
batch = {"input_ids": torch.randint(0, 100, (2, 7)).to(device),
         "attention_mask": torch.tensor([[1, 1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1]]).to(device)}
'''
CELL = '''
with torch.no_grad():
    last_hidden_state = model(**batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
