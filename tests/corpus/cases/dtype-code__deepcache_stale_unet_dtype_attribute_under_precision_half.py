"""sd-webui-deepcache-standalone casts to `unet.dtype`, which still says float32 after the webui's `--precision half` cast the SDXL UNet to float16.

Source: https://github.com/aria1th/sd-webui-deepcache-standalone/issues/9
"Mismatched dtypes when using new webui `--precision half` flag with SDXL": the extension's hijacked
UNet forward (deepcache.py lines 123 and 129) converts the timestep embedding and the SDXL label
input with `.to(unet.dtype)`; A1111's UNetModel sets `self.dtype` once at construction and
`--precision half` casts the weights without updating it (AUTOMATIC1111 issue 16221), so float32
inputs reach float16 Linear weights. The reporter's workaround: use `modules.devices.dtype_unet`
instead of `unet.dtype`. Run on the CPU (a dtype bug); the UNet is a small stand-in.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import types
import torch
from torch import nn

devices = types.SimpleNamespace(dtype_unet=torch.float16)      # modules.devices after --precision half

def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

class UNetModel(nn.Module):
    def __init__(self, model_channels=32, adm_in_channels=64, use_fp16=False):
        super().__init__()
        self.dtype = torch.float16 if use_fp16 else torch.float32
        self.model_channels = model_channels
        time_embed_dim = model_channels * 4
        self.time_embed = nn.Sequential(nn.Linear(model_channels, time_embed_dim), nn.SiLU(),
                                        nn.Linear(time_embed_dim, time_embed_dim))
        self.label_emb = nn.Sequential(nn.Linear(adm_in_channels, time_embed_dim))
        self.input_block = nn.Conv2d(4, model_channels, 3, padding=1)
        self.emb_proj = nn.Linear(time_embed_dim, model_channels)
        self.out = nn.Conv2d(model_channels, 4, 3, padding=1)

def deepcache_forward(unet, x, timesteps, y):
    dtype = unet.dtype
    t_emb = timestep_embedding(timesteps, unet.model_channels).to(dtype)
    emb = unet.time_embed(t_emb)
    emb = emb + unet.label_emb(y.to(dtype))
    h = unet.input_block(x.type(devices.dtype_unet))
    h = h + unet.emb_proj(emb)[:, :, None, None]
    return unet.out(h)

unet = UNetModel()                       # sd_model.model.diffusion_model, built in float32
unet.half()                              # --precision half: weights cast, unet.dtype left as float32
x = torch.randn(2, 4, 16, 16).half()
timesteps = torch.tensor([999, 999])
y = torch.randn(2, 64).half()            # SDXL vector conditioning
'''
CELL = '''
out = deepcache_forward(unet, x, timesteps, y)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["unet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype = unet.dtype", "dtype = devices.dtype_unet")
CLEAN = False
