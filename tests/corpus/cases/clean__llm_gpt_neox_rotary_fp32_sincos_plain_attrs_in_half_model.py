"""GPT-NeoX rotary embedding in a half-precision model: cos/sin computed in float32 and kept out of the buffers, cast and moved at use.

Source: https://github.com/EleutherAI/gpt-neox/issues/1003
The issue showed that building the rotary tables in fp16/bf16 gives wildly wrong cos/sin for some
(position, feature) pairs; jph00's fix, echoed on transformers#25681: "calculate sin and cos values in
init and ensure they're not stored in buffers" (so `model.half()` does not cast them), then move /
cast them to the activations at use. Look-alike: float32 CPU tensor attributes inside a model that was
`.half()`-ed and moved to the GPU, deliberately left alone by `Module.to()`, that run correctly.
Stand-in: the RotaryEmbedding and a NeoX-style attention using it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RotaryEmbedding(torch.nn.Module):
    def __init__(self, dim, max_seq_len=64, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(max_seq_len, dtype=torch.float32)
        freqs = torch.einsum("i,j->ij", t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        # computed once in fp32 and NOT registered as buffers, so model.half() leaves them alone
        self.cos_cached = emb.cos()[None, None, :, :]
        self.sin_cached = emb.sin()[None, None, :, :]

    def forward(self, x, seq_len):
        return (self.cos_cached[:, :, :seq_len, ...].to(device=x.device, dtype=x.dtype),
                self.sin_cached[:, :, :seq_len, ...].to(device=x.device, dtype=x.dtype))

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class GPTNeoXAttention(nn.Module):
    def __init__(self, hidden_size=64, num_attention_heads=4):
        super().__init__()
        self.num_attention_heads = num_attention_heads
        self.head_size = hidden_size // num_attention_heads
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)
        self.rotary_emb = RotaryEmbedding(self.head_size)

    def forward(self, hidden_states):
        b, t, _ = hidden_states.shape
        qkv = self.query_key_value(hidden_states).view(b, t, self.num_attention_heads, 3 * self.head_size)
        query, key, value = qkv.permute(0, 2, 1, 3).chunk(3, dim=-1)
        cos, sin = self.rotary_emb(value, seq_len=t)
        query = (query * cos) + (rotate_half(query) * sin)
        key = (key * cos) + (rotate_half(key) * sin)
        attn = torch.softmax(torch.matmul(query, key.transpose(-1, -2)) / self.head_size ** 0.5, dim=-1)
        out = torch.matmul(attn, value).permute(0, 2, 1, 3).reshape(b, t, -1)
        return self.dense(out)

model = GPTNeoXAttention().half().to("cuda:0")
hidden_states = torch.randn(2, 16, 64).half().to("cuda:0")
'''
CELL = '''
out = model(hidden_states)
print(out.dtype, model.rotary_emb.cos_cached.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
