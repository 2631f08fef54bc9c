"""xtuner on Ascend NPU: `position_ids` are put on the device of `cu_seq_lens_k`, which was moved to the CPU for NPU.

Source: https://github.com/InternLM/xtuner/pull/1325
With sequence parallel on NPU, `SequenceContext` moves `cu_seq_lens_q/k` to the CPU (the torch_npu
varlen attention API wants them there), then builds
`position_ids = torch.cat(_position_ids).unsqueeze(0).to(self.cu_seq_lens_k.device)`, so the
position ids follow them to the CPU and RoPE's `inv_freq_expanded.float().to(x.device) @
position_ids_expanded.float()` raises "... npu:0 and cpu!". The PR adds `.to(x.device)` in the RoPE
forward. Stand-in: a dataclass SequenceContext and the HF-style rotary embedding; cuda:0 stands in
for npu:0.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
from dataclasses import dataclass

@dataclass
class SequenceContext:
    input_ids: torch.Tensor
    cu_seq_lens_q: torch.Tensor
    cu_seq_lens_k: torch.Tensor
    position_ids: torch.Tensor = None

    @classmethod
    def from_input_ids(cls, input_ids, num_tokens, device="npu"):
        cu = torch.cumsum(torch.tensor([0] + num_tokens), 0).to(torch.int32)
        ctx = cls(input_ids=input_ids.to(device), cu_seq_lens_q=cu, cu_seq_lens_k=cu)
        _position_ids = [torch.arange(n) for n in num_tokens]
        ctx.position_ids = torch.cat(_position_ids).unsqueeze(0).to(ctx.cu_seq_lens_k.device)
        return ctx

class RotaryEmbedding(nn.Module):
    def __init__(self, dim=16, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float().to(x.device) @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

device = torch.device("cuda:0")        # "npu" on the Ascend node
embed_tokens = nn.Embedding(100, 64).to(device)
rotary_emb = RotaryEmbedding().to(device)
input_ids = torch.randint(0, 100, (1, 24))
# the CPU move of cu_seq_lens for NPU: SequenceContext keeps them (and position_ids) on the CPU
seq_ctx = SequenceContext.from_input_ids(input_ids, [10, 14], device=device)
'''
CELL = '''
hidden_states = embed_tokens(seq_ctx.input_ids)
cos, sin = rotary_emb(hidden_states, seq_ctx.position_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["seq_ctx.position_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
seq_ctx.position_ids = seq_ctx.position_ids.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
