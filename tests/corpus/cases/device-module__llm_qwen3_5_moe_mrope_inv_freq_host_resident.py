"""Qwen3.5-MoE text rotary embedding with its `inv_freq` buffer on the host (FSDP2 CPU offload): the M-RoPE matmul mixes cpu and cuda.

Source: https://github.com/huggingface/transformers/issues/45859
"`Qwen3_5MoeTextRotaryEmbedding.forward` is not compatible with CPU offload": under FSDP2
`CPUOffloadPolicy` the non-persistent `inv_freq` buffer stays on the CPU, and unlike `Qwen3RotaryEmbedding`
this forward never moves it to `x.device`, so `inv_freq_expanded @ position_ids_expanded` fails with a
CUDA-vs-CPU `wrapper_CUDA_bmm` mismatch (the reproducer builds the rotary module on the CPU and calls
it with cuda `x`/`position_ids`). Fixed by PR #45861, which adds `.to(x.device)` as the other rotary
embeddings do. Stand-in: the rotary module with the three M-RoPE position axes (text-only positions,
so the interleaving step is reduced to taking the first axis).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class Qwen3_5MoeTextRotaryEmbedding(nn.Module):
    def __init__(self, config, device=None):
        super().__init__()
        dim = config.head_dim
        inv_freq = 1.0 / (config.rope_theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float().to(device) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.original_inv_freq = inv_freq
        self.attention_scaling = 1.0
        self.mrope_section = config.mrope_section

    @torch.no_grad()
    def forward(self, x, position_ids):
        # In contrast to other models, Qwen3_5Moe has different position ids for the grids
        # So we expand the inv_freq to shape (3, ...)
        if position_ids.ndim == 2:
            position_ids = position_ids[None, ...].expand(3, position_ids.shape[0], -1)
        inv_freq_expanded = self.inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1)
        position_ids_expanded = position_ids[:, :, None, :].float()  # shape (3, bs, 1, positions)
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(2, 3)
        freqs = freqs[0]                      # apply_interleaved_mrope: identical axes for text tokens
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos() * self.attention_scaling
        sin = emb.sin() * self.attention_scaling
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

cfg = SimpleNamespace(head_dim=64, rope_theta=10_000_000.0, mrope_section=[11, 11, 10])
rotary = Qwen3_5MoeTextRotaryEmbedding(cfg)          # inv_freq host-resident (cpu)
x = torch.randn(1, 8, 256).to("cuda:0")
position_ids = torch.arange(8).unsqueeze(0).to("cuda:0")
'''
CELL = '''
cos, sin = rotary(x, position_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rotary"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("inv_freq_expanded = self.inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1)",
                  "inv_freq_expanded = self.inv_freq[None, None, :, None].float().expand(3, position_ids.shape[1], -1, 1).to(x.device)")
CLEAN = False
