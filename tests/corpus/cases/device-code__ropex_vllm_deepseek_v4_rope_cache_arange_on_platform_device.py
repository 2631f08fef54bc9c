"""vLLM's DeepseekV4ScalingRotaryEmbedding builds its positions on the platform device while `inv_freq` follows the default (meta) device.

Source: https://github.com/vllm-project/vllm/pull/43926
"fix: keep DeepSeek V4 RoPE cache on inv_freq device": constructing the rotary embedding under a
meta default device (as model construction before weight loading does) failed in
`DeepseekV4ScalingRotaryEmbedding._compute_cos_sin_cache()` at `torch.einsum("i,j -> ij", t,
inv_freq)` with "Tensor on device meta is not on the expected device cpu!": `t` is created with
`device=current_platform.device_type` while `inv_freq` (from `_compute_inv_freq`, no device) lands
on the default device. The merged one-line fix creates `t` with `device=inv_freq.device`.
Stand-in: vLLM's `yarn_find_correction_range` / `yarn_linear_ramp_mask` / `yarn_get_mscale`, a
trimmed `DeepseekScalingRotaryEmbedding` (inv_freq, mscale) and the V4 subclass that registers
its fp32 `cos_sin_cache` in `__init__`; `current_platform` is a namespace whose `device_type` is
"cpu" (the PR's CPU container); the meta device is the default device of the construction.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import math
import types
import torch
from torch import nn

current_platform = types.SimpleNamespace(device_type="cpu")   # vllm.platforms.current_platform

def yarn_find_correction_dim(num_rotations, dim, base=10000, max_position_embeddings=2048):
    return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

def yarn_find_correction_range(low_rot, high_rot, dim, base=10000, max_position_embeddings=2048):
    low = math.floor(yarn_find_correction_dim(low_rot, dim, base, max_position_embeddings))
    high = math.ceil(yarn_find_correction_dim(high_rot, dim, base, max_position_embeddings))
    return max(low, 0), min(high, dim - 1)

def yarn_linear_ramp_mask(low, high, dim, dtype):
    if low == high:
        high += 0.001
    linear_func = (torch.arange(dim, dtype=dtype) - low) / (high - low)
    return torch.clamp(linear_func, 0, 1)

def yarn_get_mscale(scale=1, mscale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0

class DeepseekScalingRotaryEmbedding(nn.Module):
    """RotaryEmbedding extended with YaRN method (vLLM stand-in)."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style,
                 scaling_factor, dtype, *, extrapolation_factor=1, attn_factor=1, beta_fast=32,
                 beta_slow=1, mscale=1, mscale_all_dim=0, init_cache=True):
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
        if init_cache:
            cache = self._compute_cos_sin_cache().to(dtype)
            self.register_buffer("cos_sin_cache", cache, persistent=False)

    def _compute_inv_freq(self, scaling_factor):
        pos_freqs = self.base ** (torch.arange(0, self.rotary_dim, 2, dtype=torch.float) / self.rotary_dim)
        inv_freq_extrapolation = 1.0 / pos_freqs
        inv_freq_interpolation = 1.0 / (scaling_factor * pos_freqs)
        low, high = yarn_find_correction_range(self.beta_fast, self.beta_slow, self.rotary_dim,
                                               self.base, self.max_position_embeddings)
        inv_freq_mask = (
            1 - yarn_linear_ramp_mask(low, high, self.rotary_dim // 2, dtype=torch.float)
        ) * self.extrapolation_factor
        return inv_freq_interpolation * (1 - inv_freq_mask) + inv_freq_extrapolation * inv_freq_mask

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.scaling_factor)
        t = torch.arange(self.max_position_embeddings * self.scaling_factor, dtype=torch.float32)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        return torch.cat((freqs.cos() * self.mscale, freqs.sin() * self.mscale), dim=-1)

class DeepseekV4ScalingRotaryEmbedding(DeepseekScalingRotaryEmbedding):
    """V4 variant: RoPE on the last rotary_dim, cos_sin_cache kept in fp32."""

    def __init__(self, *args, **kwargs):
        kwargs.pop("init_cache", None)
        super().__init__(*args, **kwargs, init_cache=False)
        cache_fp32 = self._compute_cos_sin_cache()
        self.register_buffer("cos_sin_cache", cache_fp32, persistent=False)

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.scaling_factor)
        t = torch.arange(
            self.max_position_embeddings * self.scaling_factor,
            device=current_platform.device_type,
            dtype=torch.float32,
        )
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        cos = freqs.cos() * self.mscale
        sin = freqs.sin() * self.mscale
        cache = torch.cat((cos, sin), dim=-1)
        return cache
'''
CELL = '''
with torch.device("meta"):
    rotary_emb = DeepseekV4ScalingRotaryEmbedding(
        128, 64, 512, 10000.0, False, 4.0, torch.bfloat16,
        beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["DeepseekV4ScalingRotaryEmbedding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            device=current_platform.device_type,\n",
                  "            device=inv_freq.device,\n")
CLEAN = False
