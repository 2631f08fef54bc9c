"""LMCache-Ascend CacheBlend check: the rope from `get_rope` keeps `cos_sin_cache` on the CPU and `index_select`s it with NPU positions.

Source: https://github.com/LMCache/LMCache-Ascend/pull/71
During the initial accuracy verification (`validate_reverse_correctness`) the rope built by
vLLM's `get_rope` is called with positions made on the NPU and fails with "Expected all tensors to
be on the same device, but found at least two devices, cpu and npu:0! (when checking argument for
argument index in method wrapper_NPU__index_select)": `cos_sin_cache` was never moved off the
CPU. The fix moves it right after `get_rope`: `rope.cos_sin_cache = rope.cos_sin_cache.to("npu")`.
Stand-in: vLLM's `RotaryEmbedding` (non-persistent `cos_sin_cache` buffer, `forward_native`,
neox style) and `get_rope` reduced to building it; LMCache-Ascend's `BasicReverseRope`/`FusedRope`
as in `positional_encoding.py`; the cell is the q/k round trip of `validate_reverse_correctness`
(the fused-kernel check, a custom op, is left out). "cuda:0" plays the NPU; the rotary slices
`x[..., :rotary_dim]` are written with `narrow` (the simulator cannot slice fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn


def _apply_rotary_emb(x, cos, sin, is_neox_style):
    cos = cos.unsqueeze(-2).to(x.dtype)
    sin = sin.unsqueeze(-2).to(x.dtype)
    if is_neox_style:
        x1, x2 = torch.chunk(x, 2, dim=-1)
    else:
        raise NotImplementedError("stand-in: neox style only")
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    return torch.cat((o1, o2), dim=-1)


class RotaryEmbedding(nn.Module):
    """Stand-in for vllm.model_executor.layers.rotary_embedding.RotaryEmbedding (forward_native)."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style, dtype):
        super().__init__()
        self.head_size = head_size
        self.rotary_dim = rotary_dim
        self.max_position_embeddings = max_position_embeddings
        self.base = base
        self.is_neox_style = is_neox_style
        self.dtype = dtype
        cache = self._compute_cos_sin_cache()
        cache = cache.to(dtype)
        self.register_buffer("cos_sin_cache", cache, persistent=False)

    def _compute_inv_freq(self, base):
        return 1.0 / (base ** (torch.arange(0, self.rotary_dim, 2, dtype=torch.float) / self.rotary_dim))

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.base)
        t = torch.arange(self.max_position_embeddings, dtype=torch.float)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        return torch.cat((freqs.cos(), freqs.sin()), dim=-1)

    def forward(self, positions, query, key=None):
        positions = positions.flatten()
        num_tokens = positions.shape[0]
        cos_sin = self.cos_sin_cache.index_select(0, positions)
        cos, sin = cos_sin.chunk(2, dim=-1)

        query_shape = query.shape
        query = query.view(num_tokens, -1, self.head_size)
        query_rot = query.narrow(-1, 0, self.rotary_dim)
        query_pass = query.narrow(-1, self.rotary_dim, self.head_size - self.rotary_dim)
        query_rot = _apply_rotary_emb(query_rot, cos, sin, self.is_neox_style)
        query = torch.cat((query_rot, query_pass), dim=-1).reshape(query_shape)

        key_shape = key.shape
        key = key.view(num_tokens, -1, self.head_size)
        key_rot = key.narrow(-1, 0, self.rotary_dim)
        key_pass = key.narrow(-1, self.rotary_dim, self.head_size - self.rotary_dim)
        key_rot = _apply_rotary_emb(key_rot, cos, sin, self.is_neox_style)
        key = torch.cat((key_rot, key_pass), dim=-1).reshape(key_shape)
        return query, key


def get_rope(head_size, rotary_dim, max_position, base, is_neox_style=True,
             rope_scaling=None, dtype=None, partial_rotary_factor=1.0):
    """Stand-in for vllm get_rope: the plain (unscaled) rope, built on the CPU."""
    if dtype is None:
        dtype = torch.get_default_dtype()
    return RotaryEmbedding(head_size, rotary_dim, max_position, base, is_neox_style, dtype)


class BasicReverseRope:
    def __init__(self, rope, rotary_dim, is_neox_style):
        self.rope = rope
        self.rotary_dim = rotary_dim
        self.is_neox_style = is_neox_style

    def do_shuffle(self, t):
        original_shape = t.shape
        t = t.reshape(t.shape[0], -1, self.rotary_dim)
        o1, o2 = torch.chunk(t, 2, dim=-1)
        return torch.cat((o2, o1), dim=-1).reshape(original_shape)

    def reverse_encode(self, positions, q, k):
        sq = self.do_shuffle(q)
        sk = self.do_shuffle(k)
        nq, nk = self.rope(positions, sq, sk)
        fq = self.do_shuffle(nq)
        fk = self.do_shuffle(nk)
        return fq, fk

    def __call__(self, positions, q, k):
        return self.reverse_encode(positions, q, k)


class FusedRope:
    def __init__(self, rope, is_neox_style):
        self.rope = rope
        self.is_neox_style = is_neox_style
        self.head_size = rope.head_size
        self.cos_sin_cache = rope.cos_sin_cache


head_size = 64
rotary_dim = 64
max_position = 512
base = 10000
is_neox_style = True
rope = get_rope(head_size, rotary_dim, max_position, base, is_neox_style, None, torch.bfloat16, 1.0)
reverse_rope = BasicReverseRope(rope, rotary_dim, is_neox_style)
fused_rope = FusedRope(rope, is_neox_style)
'''
CELL = '''
hidden_dim = head_size * 8
num_tokens = 10

dumb_q = torch.rand((num_tokens, hidden_dim), device="cuda:0", dtype=torch.bfloat16)
dumb_k = torch.rand((num_tokens, hidden_dim), device="cuda:0", dtype=torch.bfloat16)
positions = torch.arange(num_tokens, device="cuda:0")

q1 = dumb_q.clone()
k1 = dumb_k.clone()
q1, k1 = rope(positions, q1, k1)
q1, k1 = reverse_rope(positions, q1, k1)

max_q_error = (dumb_q - q1).abs().max()
max_k_error = (dumb_k - k1).abs().max()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rope.cos_sin_cache"]
FIX = "namespace"
REFERENCE_FIX = '''
rope.cos_sin_cache = rope.cos_sin_cache.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
