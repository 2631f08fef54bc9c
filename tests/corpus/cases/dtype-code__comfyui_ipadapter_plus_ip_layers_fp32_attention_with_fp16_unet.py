"""ComfyUI_IPAdapter_plus (Dec 2023) builds its IP key/value layers in float32 on a GTX 1080 Ti while the UNet's attention runs in float16.

Source: https://github.com/cubiq/ComfyUI_IPAdapter_plus/issues/140
"RuntimeError: expected mat1 and mat2 to have the same dtype, but got: struct c10::Half != float"
during sampling with an IPAdapter. Forcing `--force-fp16` made it go away; another user patched
`out_ip = optimized_attention(q, ip_k.half(), ip_v.half(), ...)` on a 1080 Ti, and the author then
fixed the node. The IP key/value layers were float32 while the UNet the attention patch runs inside
was float16, so the float32 `ip_k`/`ip_v` met a half `q`; in the stand-in the IPAdapter takes its
dtype from `should_use_fp16()` (False on that card) instead of from the UNet.
Run on the CPU (a dtype bug); ComfyUI's attention and the IPAdapter's To_KV are small stand-ins.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def should_use_fp16():                          # comfy.model_management on a GTX 1080 Ti
    return False

def unet_dtype():                               # the dtype the loaded UNet actually runs in
    return torch.float16

def attention_basic(q, k, v, heads):
    b, _, dim_head = q.shape
    dim_head //= heads
    q, k, v = (t.reshape(b, -1, heads, dim_head).permute(0, 2, 1, 3).reshape(b * heads, -1, dim_head) for t in (q, k, v))
    sim = torch.einsum("b i d, b j d -> b i j", q, k) * dim_head ** -0.5
    out = torch.einsum("b i j, b j d -> b i d", sim.softmax(dim=-1), v)
    return out.reshape(b, heads, -1, dim_head).permute(0, 2, 1, 3).reshape(b, -1, heads * dim_head)

class To_KV(nn.Module):
    def __init__(self, cross_attention_dim=32, inner_dim=32):
        super().__init__()
        self.to_kvs = nn.ModuleList([nn.Linear(cross_attention_dim, inner_dim, bias=False) for _ in range(2)])

class IPAdapter:
    def __init__(self, device="cpu"):
        self.dtype = torch.float16 if should_use_fp16() else torch.float32
        self.ip_layers = To_KV().to(device, dtype=self.dtype)

class CrossAttentionPatch:
    def __init__(self, ipadapter, cond, weight=1.0):
        self.ipadapter, self.cond, self.weight = ipadapter, cond, weight

    def __call__(self, n, context_attn2, value_attn2, extra_options):
        q = n
        k, v = context_attn2, value_attn2
        out = attention_basic(q, k, v, extra_options["n_heads"])
        ip_k = self.ipadapter.ip_layers.to_kvs[0](self.cond)
        ip_v = self.ipadapter.ip_layers.to_kvs[1](self.cond)
        out_ip = attention_basic(q, ip_k, ip_v, extra_options["n_heads"])
        return out + out_ip * self.weight

ipadapter = IPAdapter()
image_cond = torch.randn(1, 4, 32).to(ipadapter.dtype)          # image_proj_model output
patch = CrossAttentionPatch(ipadapter, image_cond, weight=0.8)
n = torch.randn(1, 64, 32).to(unet_dtype())                     # attn2 query input inside the fp16 UNet
context = torch.randn(1, 77, 32).to(unet_dtype())
'''
CELL = '''
out = patch(n, context, context, {"n_heads": 4})
'''
EXPECT_ERROR = ("expected scalar type", "must have the same dtype", "to have the same dtype")
CULPRITS = ["ipadapter"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.dtype = torch.float16 if should_use_fp16() else torch.float32", "self.dtype = unet_dtype()")
CLEAN = False
