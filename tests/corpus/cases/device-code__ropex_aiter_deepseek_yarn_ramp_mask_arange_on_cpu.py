"""aiter's DeepseekScalingRotaryEmbedding builds its YaRN ramp mask on the CPU while the frequencies live on the GPU.

Source: https://github.com/ROCm/aiter/pull/2489
"Fix CPU/GPU device mismatch in _yarn_linear_ramp_mask": `_yarn_linear_ramp_mask` creates its
`torch.arange` on the CPU (default device) but `DeepseekScalingRotaryEmbedding._compute_inv_freq`
mixes the result with `pos_freqs` created with `device="cuda"`, raising "Expected all tensors to be
on the same device, but found at least two devices, cuda:N and cpu!" when SGLang builds the rotary
embedding of a DeepseekScaling/YaRN model (Kimi-K2.5). The fix gives `_yarn_linear_ramp_mask` a
device and creates the ramp on the GPU. Stand-in: aiter's `rotary_embedding.py` helpers
(`_yarn_find_correction_range`, `_yarn_linear_ramp_mask`, `yarn_get_mscale`) and a trimmed
`DeepseekScalingRotaryEmbedding` whose cos/sin cache is computed in `__init__`; `dtypes.fp32` is
aiter's alias for torch.float32.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class dtypes:                      # aiter.dtypes
    fp32 = torch.float32

def _yarn_find_correction_dim(num_rotations, dim, base=10000, max_position_embeddings=2048):
    return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

def _yarn_find_correction_range(low_rot, high_rot, dim, base=10000, max_position_embeddings=2048):
    low = math.floor(_yarn_find_correction_dim(low_rot, dim, base, max_position_embeddings))
    high = math.ceil(_yarn_find_correction_dim(high_rot, dim, base, max_position_embeddings))
    return max(low, 0), min(high, dim - 1)

def _yarn_linear_ramp_mask(low, high, dim, dtype):
    if low == high:
        high += 0.001  # Prevent singularity
    linear_func = (torch.arange(dim, dtype=dtype) - low) / (high - low)
    ramp_func = torch.clamp(linear_func, 0, 1)
    return ramp_func

def yarn_get_mscale(scale=1, mscale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0

class DeepseekScalingRotaryEmbedding(nn.Module):
    """RotaryEmbedding extended with YaRN method (aiter stand-in)."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style,
                 scaling_factor, dtype, *, extrapolation_factor=1, attn_factor=1, beta_fast=32,
                 beta_slow=1, mscale=1, mscale_all_dim=0):
        super().__init__()
        self.head_size, self.rotary_dim = head_size, rotary_dim
        self.max_position_embeddings, self.base = max_position_embeddings, base
        self.is_neox_style, self.dtype = is_neox_style, dtype
        self.scaling_factor = scaling_factor
        self.extrapolation_factor = extrapolation_factor
        self.attn_factor = attn_factor
        self.beta_fast, self.beta_slow = beta_fast, beta_slow
        self.mscale = float(yarn_get_mscale(self.scaling_factor, float(mscale))
                            / yarn_get_mscale(self.scaling_factor, float(mscale_all_dim)) * attn_factor)
        cos, sin = self._compute_cos_sin_cache()
        self.register_buffer("cos_cache", cos.to(dtype), persistent=False)
        self.register_buffer("sin_cache", sin.to(dtype), persistent=False)

    def _compute_inv_freq(self, scaling_factor):
        pos_freqs = self.base ** (
            torch.arange(0, self.rotary_dim, 2, dtype=dtypes.fp32, device="cuda") / self.rotary_dim
        )
        inv_freq_extrapolation = 1.0 / pos_freqs
        inv_freq_interpolation = 1.0 / (scaling_factor * pos_freqs)
        low, high = _yarn_find_correction_range(self.beta_fast, self.beta_slow, self.rotary_dim,
                                                self.base, self.max_position_embeddings)
        inv_freq_mask = (
            1 - _yarn_linear_ramp_mask(low, high, self.rotary_dim // 2, dtype=dtypes.fp32)
        ) * self.extrapolation_factor
        inv_freq = inv_freq_interpolation * (1 - inv_freq_mask) + inv_freq_extrapolation * inv_freq_mask
        return inv_freq

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.scaling_factor)
        t = torch.arange(self.max_position_embeddings * self.scaling_factor, device="cuda", dtype=dtypes.fp32)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        cos = freqs.cos().unsqueeze(-2).unsqueeze(-2) * self.mscale
        sin = freqs.sin().unsqueeze(-2).unsqueeze(-2) * self.mscale
        return cos, sin

rope_scaling = {"factor": 4.0, "original_max_position_embeddings": 256, "beta_fast": 32,
                "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}
'''
CELL = '''
with torch.no_grad():
    rotary_emb = DeepseekScalingRotaryEmbedding(
        64, 64, rope_scaling["original_max_position_embeddings"], 10000, False,
        rope_scaling["factor"], torch.bfloat16, beta_fast=rope_scaling["beta_fast"],
        beta_slow=rope_scaling["beta_slow"], mscale=rope_scaling["mscale"],
        mscale_all_dim=rope_scaling["mscale_all_dim"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_yarn_linear_ramp_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("linear_func = (torch.arange(dim, dtype=dtype) - low) / (high - low)",
                  "linear_func = (torch.arange(dim, dtype=dtype, device=\"cuda\") - low) / (high - low)")
CLEAN = False
