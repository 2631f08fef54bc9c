"""Llama forward with an explicit `position_ids` built on the CPU while the model and input_ids are on cuda.

Source: https://github.com/huggingface/transformers/pull/43369
(Fixes #43350.) Passing `position_ids` that live on the CPU to a Llama model on cuda fails in
`LlamaRotaryEmbedding.forward`: `inv_freq_expanded` is moved to `x.device` but `position_ids` is not,
so the matmul raises "mat2 is on cpu, different from other tensors on cuda:0". The PR (closed, not
merged) proposed moving it inside the library; the caller's fix is to build `position_ids` on the
model's device. Stand-in: LlamaRotaryEmbedding and a one-layer Llama-shaped model.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1).to(x.device)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype=x.dtype), emb.sin().to(dtype=x.dtype)

class LlamaModel(nn.Module):
    def __init__(self, vocab_size=128, hidden_size=64, num_heads=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.rotary_emb = LlamaRotaryEmbedding(hidden_size // num_heads)
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.num_heads = num_heads

    def forward(self, input_ids, position_ids=None):
        hidden_states = self.embed_tokens(input_ids)
        if position_ids is None:
            position_ids = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        cos, sin = self.rotary_emb(hidden_states, position_ids)
        b, t, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(b, t, self.num_heads, -1).transpose(1, 2)
        return q * cos.unsqueeze(1) + q * sin.unsqueeze(1)

model = LlamaModel().to("cuda:0")
input_ids = torch.randint(0, 128, (1, 12)).to("cuda:0")
position_ids = torch.arange(12).unsqueeze(0)
'''
CELL = '''
out = model(input_ids, position_ids=position_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["position_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
position_ids = position_ids.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
