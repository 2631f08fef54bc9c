"""TransformerEngine attention allocates its KV inference cache in `params_dtype` (fp32 by default) under a bf16 model.

Source: https://github.com/NVIDIA/TransformerEngine/pull/319
"Fix dtype for KV inference cache": "This ensures that the dtype for the inference cache is the same
as that of the activations. `params_dtype` is not necessarily passed and so it defaulted to fp32."
A layer built without `params_dtype` and cast to bf16 writes its bf16 keys/values into fp32 cache
buffers and reads them back as fp32, so the core attention multiplies a bf16 query by fp32 keys.
Stand-in: te.MultiheadAttention reduced to QKV/out projections, `InferenceParams` and the unfused
core attention (matmul); CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class InferenceParams:
    def __init__(self, max_batch_size, max_sequence_length):
        self.max_batch_size = max_batch_size
        self.max_sequence_length = max_sequence_length
        self.sequence_len_offset = 0
        self.batch_size_offset = 0
        self.key_value_memory_dict = {}

class MultiheadAttention(nn.Module):
    def __init__(self, hidden_size, num_attention_heads, layer_number=1, params_dtype=None):
        super().__init__()
        self.params_dtype = torch.get_default_dtype() if params_dtype is None else params_dtype
        self.layer_number = layer_number
        self.heads, self.head_dim = num_attention_heads, hidden_size // num_attention_heads
        self.qkv = nn.Linear(hidden_size, 3 * hidden_size, dtype=self.params_dtype)
        self.proj = nn.Linear(hidden_size, hidden_size, dtype=self.params_dtype)

    def _allocate_memory(self, inference_max_sequence_len, batch_size, dtype):
        return torch.empty(inference_max_sequence_len, batch_size, self.heads, self.head_dim, dtype=dtype)

    def forward(self, hidden_states, inference_params=None):
        sq, b, _ = hidden_states.shape          # [seq, batch, hidden]
        q, k, v = self.qkv(hidden_states).view(sq, b, 3, self.heads, self.head_dim).unbind(2)
        if inference_params is not None:
            if self.layer_number not in inference_params.key_value_memory_dict:
                inf_max_seq_len = inference_params.max_sequence_length
                inf_max_batch_size = inference_params.max_batch_size
                inference_key_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=self.params_dtype)
                inference_value_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=self.params_dtype)
                inference_params.key_value_memory_dict[self.layer_number] = (inference_key_memory, inference_value_memory)
            inference_key_memory, inference_value_memory = inference_params.key_value_memory_dict[self.layer_number]
            start, end = inference_params.sequence_len_offset, inference_params.sequence_len_offset + sq
            inference_key_memory[start:end, :b] = k
            inference_value_memory[start:end, :b] = v
            k = inference_key_memory[:end, :b]
            v = inference_value_memory[:end, :b]
        q, k, v = (t.permute(1, 2, 0, 3) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        context = torch.matmul(scores.softmax(-1), v)
        return self.proj(context.permute(2, 0, 1, 3).reshape(sq, b, -1))

layer = MultiheadAttention(hidden_size=64, num_attention_heads=4).to(dtype=torch.bfloat16)
inference_params = InferenceParams(max_batch_size=2, max_sequence_length=16)
hidden_states = torch.randn(5, 2, 64, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    out = layer(hidden_states, inference_params=inference_params)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("inference_key_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=self.params_dtype)\n                inference_value_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=self.params_dtype)",
                  "inference_key_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=hidden_states.dtype)\n                inference_value_memory = self._allocate_memory(inf_max_seq_len, inf_max_batch_size, dtype=hidden_states.dtype)")
CLEAN = False
