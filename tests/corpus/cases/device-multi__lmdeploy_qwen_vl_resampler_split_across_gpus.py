"""lmdeploy's Qwen-VL-Chat vision encoder dispatched over several GPUs splits the Resampler.

Source: https://github.com/InternLM/lmdeploy/pull/1824
`pipe.vl_encoder.forward([im])` raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:7 and cuda:6!" at Qwen-VL's visual.py
`self._repeat(q, N) + self.pos_embed.unsqueeze(1)`: the vision model was loaded with an accelerate
device map that cut the attention-pool Resampler in two, so `ln_q` (and the query it normalizes)
sat on one GPU while the Resampler's own `pos_embed` parameter stayed on the other; the hooks only
move a submodule's *inputs*. The PR keeps the pool on one device. Stand-in: visual.py's
VisionTransformer/Resampler at toy size with a pre-hook in place of accelerate's AlignDevicesHook.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args):
    """accelerate's AlignDevicesHook stand-in: move the inputs to the module's own device."""
    device = next(module.parameters()).device
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook)

class Resampler(nn.Module):
    def __init__(self, num_queries=4, embed_dim=32, num_heads=4, kv_dim=24):
        super().__init__()
        self.num_queries = num_queries
        self.pos_embed = nn.Parameter(torch.randn(num_queries, embed_dim)).requires_grad_(False)
        self.query = nn.Parameter(torch.zeros(num_queries, embed_dim))
        self.kv_proj = nn.Linear(kv_dim, embed_dim, bias=False)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads)
        self.ln_q = nn.LayerNorm(embed_dim)
        self.ln_kv = nn.LayerNorm(embed_dim)

    def _repeat(self, query, N):
        return query.unsqueeze(1).repeat(1, N, 1)

    def forward(self, x, attn_mask=None):
        pos_embed = self.pos_embed.mean(0, keepdim=True)   # get_abs_pos stand-in
        x = self.kv_proj(x)
        x = self.ln_kv(x).permute(1, 0, 2)
        N = x.shape[1]
        q = self.ln_q(self.query)
        out = self.attn(
            self._repeat(q, N) + self.pos_embed.unsqueeze(1),
            x + pos_embed.unsqueeze(1),
            x,
            attn_mask=attn_mask)[0]
        return out.permute(1, 0, 2)

class VisionTransformer(nn.Module):
    def __init__(self, width=24, output_dim=32):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=8, stride=8, bias=False)
        self.transformer = nn.Sequential(nn.Linear(width, width), nn.GELU())
        self.attn_pool = Resampler(embed_dim=output_dim, kv_dim=width)
        self.ln_post = nn.LayerNorm(output_dim)

    def forward(self, x):
        x = self.conv1(x).flatten(2).permute(0, 2, 1)
        x = self.transformer(x)
        x = self.attn_pool(x)
        return self.ln_post(x)

class QwenVisionModel:
    """lmdeploy.vl.model.qwen.QwenVisionModel: the vision part of Qwen-VL-Chat, dispatched."""
    def __init__(self):
        self.model = VisionTransformer().eval()
        # the device map the encoder got: the Resampler cut between two cards
        self.model.to("cuda:0")
        dispatch(self.model.conv1, "cuda:0")
        dispatch(self.model.transformer, "cuda:0")
        dispatch(self.model.attn_pool.kv_proj, "cuda:0")
        dispatch(self.model.attn_pool.ln_kv, "cuda:0")
        dispatch(self.model.attn_pool.ln_q, "cuda:1")
        dispatch(self.model.attn_pool.attn, "cuda:1")
        dispatch(self.model.ln_post, "cuda:1")

    @torch.no_grad()
    def forward(self, images):
        outputs = torch.stack([im for im in images], dim=0).to("cuda:0")
        return self.model(outputs)

vl_encoder = QwenVisionModel()
im = torch.randn(3, 32, 32)     # load_image('tiger.jpeg') after the image transform
'''
CELL = '''
features = vl_encoder.forward([im])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["vl_encoder.model.attn_pool"]
FIX = "namespace"
REFERENCE_FIX = '''
vl_encoder.model.attn_pool.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
