"""Look-alike: a rope built on the CPU by `get_rope` used with GPU positions; vllm-ascend's `_rope_forward_oot` moves `cos_sin_cache` to the query's device and dtype before using it.

Source: https://github.com/vllm-project/vllm-ascend/blob/12fdd778eb7332ddb2d277e3e365ac3150356fa4/vllm_ascend/ops/rotary_embedding.py
`_rope_forward_oot` starts with `if self.cos_sin_cache.device != query.device:
self.cos_sin_cache = self.cos_sin_cache.to(query.device)` and the same for the dtype, so a
`RotaryEmbedding` whose non-persistent `cos_sin_cache` buffer was computed on the CPU (and never
moved with the model) is safe to call with accelerator positions/queries: the cache follows the
query on first use. It looks like the stray CPU cache of LMCache-Ascend PR #71, but the forward
itself repairs it.
Stand-in: vLLM's `RotaryEmbedding` (cache computation, neox-style rotation) with vllm-ascend's
`_rope_forward_oot` as its forward; the NPU kernels that consume the cache are replaced by the
native `index_select` + rotation math (rotary slices written with `narrow`, the simulator cannot
slice fake GPU tensors). "cuda:0" plays the NPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def _apply_rotary_emb(x, cos, sin, is_neox_style):
    cos = cos.unsqueeze(-2).to(x.dtype)
    sin = sin.unsqueeze(-2).to(x.dtype)
    x1, x2 = torch.chunk(x, 2, dim=-1)
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    return torch.cat((o1, o2), dim=-1)


class RotaryEmbedding(nn.Module):
    """Stand-in for vLLM RotaryEmbedding with vllm-ascend's _rope_forward_oot as forward."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style, dtype):
        super().__init__()
        self.head_size = head_size
        self.rotary_dim = rotary_dim
        self.max_position_embeddings = max_position_embeddings
        self.base = base
        self.is_neox_style = is_neox_style
        self.dtype = dtype
        cache = self._compute_cos_sin_cache().to(dtype)
        self.register_buffer("cos_sin_cache", cache, persistent=False)

    def _compute_inv_freq(self, base):
        return 1.0 / (base ** (torch.arange(0, self.rotary_dim, 2, dtype=torch.float) / self.rotary_dim))

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.base)
        t = torch.arange(self.max_position_embeddings, dtype=torch.float)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        return torch.cat((freqs.cos(), freqs.sin()), dim=-1)

    def forward(self, positions, query, key, offsets=None):
        query_shape, key_shape = query.shape, key.shape
        if self.cos_sin_cache.device != query.device:
            self.cos_sin_cache = self.cos_sin_cache.to(query.device)
        if self.cos_sin_cache.dtype != query.dtype:
            self.cos_sin_cache = self.cos_sin_cache.to(query.dtype)
        if offsets is not None:
            raise NotImplementedError("Batched rotary embedding is currently not supported on NPU.")
        # stand-in for the NPU kernels: the native math on the (now co-located) cache
        num_tokens = positions.shape[0]
        cos, sin = self.cos_sin_cache.index_select(0, positions).chunk(2, dim=-1)
        query = query.view(num_tokens, -1, self.head_size)
        key = key.view(num_tokens, -1, self.head_size)
        query = _apply_rotary_emb(query.narrow(-1, 0, self.rotary_dim), cos, sin, self.is_neox_style)
        key = _apply_rotary_emb(key.narrow(-1, 0, self.rotary_dim), cos, sin, self.is_neox_style)
        return query.reshape(query_shape), key.reshape(key_shape)


def get_rope(head_size, rotary_dim, max_position, base, is_neox_style=True, rope_scaling=None, dtype=None):
    """Stand-in for vllm get_rope: the plain rope, built on the CPU."""
    return RotaryEmbedding(head_size, rotary_dim, max_position, base, is_neox_style,
                           dtype or torch.get_default_dtype())


head_size = 64
rope = get_rope(head_size, head_size, 512, 10000, True, None, torch.float32)
'''
CELL = '''
num_tokens = 10
q = torch.rand((num_tokens, head_size * 8), device="cuda:0", dtype=torch.bfloat16)
k = torch.rand((num_tokens, head_size * 8), device="cuda:0", dtype=torch.bfloat16)
positions = torch.arange(num_tokens, device="cuda:0")
q_rot, k_rot = rope(positions, q, k)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
