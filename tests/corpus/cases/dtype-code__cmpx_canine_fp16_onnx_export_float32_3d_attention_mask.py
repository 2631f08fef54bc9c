"""ONNX export of a CANINE model converted with `.half()`: the shallow character encoder's 3-D attention mask is built in float32 and promotes the attention scores, so the final matmul mixes float32 and float16.

Source: https://github.com/huggingface/transformers/issues/47050
"CanineModel fp16 ONNX export fails with dtype mismatch in attention (expected scalar type Float but
found Half)": the user wrapped `CanineModel.from_pretrained("google/canine-s").half().eval()` and
called `torch.onnx.export`. The fix (PR #47083): `_create_3d_attention_mask_from_input_mask()` builds
the mask with a hard-coded `.float()` / `dtype=torch.float32`; `CanineSelfAttention.forward` adds it to
`attention_scores`, which become float32, and `attention_probs @ value_layer` (float16) fails. The
PR casts the mask: `attention_scores + attention_mask.to(attention_scores.dtype)`.
Stand-in: a one-layer CANINE-like character encoder (embedding, q/k/v projections, the float32 3-D
mask helper) in float16 on the CPU; the export's trace is the forward the cell runs.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn

def _create_3d_attention_mask_from_input_mask(from_tensor, to_mask):
    batch_size, from_seq_length = from_tensor.shape[0], from_tensor.shape[1]
    to_seq_length = to_mask.shape[1]
    to_mask = torch.reshape(to_mask, (batch_size, 1, to_seq_length)).float()
    broadcast_ones = torch.ones(size=(batch_size, from_seq_length, 1), dtype=torch.float32, device=to_mask.device)
    mask = broadcast_ones * to_mask
    return (1.0 - mask) * -10000.0

class CanineSelfAttention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.num_attention_heads, self.head_size = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def split(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.num_attention_heads, self.head_size).transpose(1, 2)

    def forward(self, hidden_states, attention_mask):
        query_layer = self.split(self.query(hidden_states))
        key_layer = self.split(self.key(hidden_states))
        value_layer = self.split(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2)) / math.sqrt(self.head_size)
        if attention_mask.ndim == 3:
            attention_mask = attention_mask.unsqueeze(1)
            attention_scores = attention_scores + attention_mask
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        context_layer = torch.matmul(attention_probs, value_layer)
        return context_layer.transpose(1, 2).reshape(hidden_states.shape)

class CanineModel(nn.Module):
    def __init__(self, vocab=1024, hidden=32):
        super().__init__()
        self.char_embeddings = nn.Embedding(vocab, hidden)
        self.initial_char_encoder = CanineSelfAttention(hidden)

    def forward(self, input_ids, attention_mask):
        embedding_output = self.char_embeddings(input_ids)
        char_attention_mask = _create_3d_attention_mask_from_input_mask(input_ids, attention_mask)
        return self.initial_char_encoder(embedding_output, char_attention_mask)

class CanineWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = CanineModel().half().eval()       # CanineModel.from_pretrained("google/canine-s").half().eval()

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids=input_ids, attention_mask=attention_mask)

wrapper = CanineWrapper()
input_ids = torch.randint(0, 1024, (1, 11))
attention_mask = torch.ones(1, 11, dtype=torch.long)
'''
CELL = '''
with torch.no_grad():
    out = wrapper(input_ids, attention_mask)        # torch.onnx.export(wrapper, (input_ids, attention_mask), path) traces this forward
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["wrapper"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            attention_scores = attention_scores + attention_mask\n",
                  "            attention_scores = attention_scores + attention_mask.to(attention_scores.dtype)\n")
CLEAN = False
