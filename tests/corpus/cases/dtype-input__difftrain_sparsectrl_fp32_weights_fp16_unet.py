"""AnimateDiff + SparseCtrl sampling: the control model's weights load as float32 while the UNet runs in fp16.

Source: https://github.com/Kosinkadink/ComfyUI-Advanced-ControlNet/pull/249
Sampling with SparseCtrl raised "mat1 and mat2 must have the same dtype, but got Half and Float" at the
control model's first `time_embed` Linear: `load_sparsectrl` built the control model with `dtype=None`
and the lazy state-dict loading assigned the on-disk fp32 tensors directly, so fp32 weights met fp16
activations (no runtime casting for these ops). The fix builds/casts the control model with the UNet's
dtype (`controlnet_config["dtype"] = unet_dtype`). Stand-in: a SparseCtrl-like control net (time MLP,
condition encoder, zero convs) called with the fp16 sampling inputs; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import torch
from torch import nn

def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

class SparseControlNet(nn.Module):
    def __init__(self, model_channels=32, hint_channels=4, dtype=None):
        super().__init__()
        self.model_channels = model_channels
        self.dtype = dtype if dtype is not None else torch.float32
        self.time_embed = nn.Sequential(nn.Linear(model_channels, 4 * model_channels), nn.SiLU(),
                                        nn.Linear(4 * model_channels, 4 * model_channels))
        self.input_hint_block = nn.Conv2d(hint_channels, model_channels, 3, padding=1)
        self.zero_convs = nn.ModuleList([nn.Conv2d(model_channels, model_channels, 1)])

    def forward(self, x, hint, timesteps, context):
        t_emb = timestep_embedding(timesteps, self.model_channels).to(x.dtype)
        emb = self.time_embed(t_emb)
        h = self.input_hint_block(hint) + emb[:, :self.model_channels, None, None]
        return [zc(h) for zc in self.zero_convs]

unet_dtype = torch.float16
controlnet_config = {"model_channels": 32, "hint_channels": 4}      # from model_config_from_unet: no dtype
control_model = SparseControlNet(**controlnet_config)                # lazy load keeps the fp32 tensors
x = torch.randn(2, 4, 8, 8, dtype=unet_dtype)                       # latents in the UNet's dtype
hint = torch.randn(2, 4, 8, 8, dtype=unet_dtype)
timesteps = torch.tensor([999., 999.])
context = torch.randn(2, 77, 32, dtype=unet_dtype)
'''
CELL = '''
control = control_model(x, hint, timesteps, context)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same", "expected m1 and m2 to have the same dtype")
CULPRITS = ["control_model"]
FIX = "namespace"
REFERENCE_FIX = '''
control_model.to(unet_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
