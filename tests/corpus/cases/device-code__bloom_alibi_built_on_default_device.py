"""BLOOM: the ALiBi bias is built without a device in the model's forward and lands on the default device.

Source: https://github.com/huggingface/transformers/pull/18087
"[bloom] fix alibi device placement": "currently it's the default device which breaks things at
times - it has to be set explicitly to the correct device" (found running DeepSpeed-Inference).
`build_alibi_tensor(max_seq_len, n_head, dtype)` makes `slopes = torch.Tensor(get_slopes(n_head))`
and an `arange` with no device; the attention then adds the CPU bias to CUDA scores. The PR passes
`device` through. Stand-in: BloomModel reduced to embeddings, the alibi builder and one attention
block adding `alibi` to the scores.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

def get_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return [start * start ** i for i in range(n)]

def build_alibi_tensor(max_seq_len, n_head, dtype=torch.float32):
    slopes = torch.Tensor(get_slopes(n_head)).unsqueeze(1).unsqueeze(1)
    arange_tensor = torch.arange(max_seq_len).unsqueeze(0).unsqueeze(0)
    alibi = slopes * arange_tensor.expand(n_head, -1, -1)
    return alibi.to(dtype)

class BloomAttention(nn.Module):
    def __init__(self, hidden, n_head):
        super().__init__()
        self.n_head, self.head_dim = n_head, hidden // n_head
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.dense = nn.Linear(hidden, hidden)

    def forward(self, h, alibi):
        b, s, _ = h.shape
        q, k, v = self.qkv(h).view(b, s, 3, self.n_head, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim) + alibi
        out = scores.softmax(-1) @ v
        return self.dense(out.transpose(1, 2).reshape(b, s, -1))

class BloomModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_head=4):
        super().__init__()
        self.n_head = n_head
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.h = nn.ModuleList([BloomAttention(hidden, n_head)])

    def forward(self, input_ids):
        hidden_states = self.word_embeddings(input_ids)
        alibi = build_alibi_tensor(input_ids.shape[1], self.n_head, hidden_states.dtype)
        for block in self.h:
            hidden_states = hidden_states + block(hidden_states, alibi)
        return hidden_states

device = torch.device("cuda:0")
model = BloomModel().to(device)
input_ids = torch.randint(0, 100, (2, 10)).to(device)
'''
CELL = '''
with torch.no_grad():
    out = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "alibi = build_alibi_tensor(input_ids.shape[1], self.n_head, hidden_states.dtype)",
    "alibi = build_alibi_tensor(input_ids.shape[1], self.n_head, hidden_states.dtype).to(hidden_states.device)",
)
CLEAN = False
