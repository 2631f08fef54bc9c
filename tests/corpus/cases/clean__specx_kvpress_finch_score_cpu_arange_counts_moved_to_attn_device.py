"""kvpress FinchPress scoring: the per-position normalisation counts are built with a CPU `arange` and moved to the attention weights' device.

Source: https://github.com/NVIDIA/kvpress/blob/main/kvpress/presses/finch_press.py
`FinchPress.score` normalises the window attention by the number of non-zero weights:
`non_zero_counts = torch.arange(k_len - self.window_size, k_len)[None, None, :, None]` (default CPU)
followed by `non_zero_counts = non_zero_counts.to(attn_weights.device)` before
`attn_weights = attn_weights * non_zero_counts`, then averages per KV group. Look-alike: a tensor made
without a device inside a press on a cuda model, moved right away; it runs.
Stand-in: FinchPress.score with precomputed `attentions` (the final `F.pad` with `scores.max().item()`
left out), on a cuda:0 attention module.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass, field
from types import SimpleNamespace
import torch
from torch import nn

@dataclass
class FinchPress:
    compression_ratio: float = 0.0
    normalize_scores: bool = True
    window_size: int = field(default=None, init=False)

    def score(self, module, hidden_states, keys, values, attentions, kwargs):
        bsz, num_key_value_heads, k_len, _ = keys.shape
        num_key_value_groups = module.config.num_attention_heads // num_key_value_heads
        attn_weights = attentions[..., -self.window_size :, : -self.window_size]
        if self.normalize_scores:
            non_zero_counts = torch.arange(k_len - self.window_size, k_len)[None, None, :, None]
            non_zero_counts = non_zero_counts.to(attn_weights.device)
            attn_weights = attn_weights * non_zero_counts
        scores = attn_weights.mean(dim=-2)
        scores = scores.view(bsz, num_key_value_heads, num_key_value_groups, k_len - self.window_size)
        scores = scores.mean(dim=2)
        return scores

class LlamaAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(num_attention_heads=8, num_key_value_heads=2)
        self.k_proj = nn.Linear(64, 16, bias=False)

device = torch.device("cuda:0")
module = LlamaAttention().to(device)
press = FinchPress(compression_ratio=0.5)
press.window_size = 4
k_len = 24
keys = torch.randn(1, 2, k_len, 8, device=device)
values = torch.randn(1, 2, k_len, 8, device=device)
hidden_states = torch.randn(1, k_len, 64, device=device)
attentions = torch.softmax(torch.randn(1, 8, k_len, k_len, device=device), dim=-1)
'''
CELL = '''
with torch.no_grad():
    scores = press.score(module, hidden_states, keys, values, attentions, {})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
