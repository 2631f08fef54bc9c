"""AnimateDiff-Evolved casts the motion module to the UNet dtype before `load_state_dict`, which puts the float32 checkpoint tensors back.

Source: https://github.com/Kosinkadink/ComfyUI-AnimateDiff-Evolved/pull/573
Issue 569: with the UNet in float16, sampling failed with "expected scalar type Half but found
Float" inside the motion module. The PR: "All motion model loading functions were calling
`.to(dtype)` before `load_state_dict()`, which meant `load_state_dict` immediately overwrote the
cast weights with the original float32 values from disk"; it moves `.to(dtype)` after the load in
`load_motion_module_gen2` and the others. (The stand-in loads with `assign=True`, which keeps the
checkpoint's float32 tensors as the PR describes.) Run on the CPU (a dtype bug); the motion module is a small temporal-attention
stand-in, the checkpoint a float32 state dict.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class TemporalTransformerBlock(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj_in = nn.Linear(dim, dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.proj_out = nn.Linear(dim, dim)

    def forward(self, x, video_length):
        bf, c, h, w = x.shape
        b = bf // video_length
        h_ = x.reshape(b, video_length, c, h * w).permute(0, 3, 1, 2).reshape(b * h * w, video_length, c)
        h_ = self.proj_in(self.norm(h_))
        h_ = self.proj_out(self.attn(h_, h_, h_, need_weights=False)[0])
        h_ = h_.reshape(b, h * w, video_length, c).permute(0, 2, 3, 1).reshape(bf, c, h, w)
        return x + h_

class AnimateDiffModel(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.down_blocks = nn.ModuleList([TemporalTransformerBlock(dim) for _ in range(2)])

def load_motion_module_gen2(mm_state_dict, dtype):
    ad_wrapper = AnimateDiffModel()
    ad_wrapper.to(dtype)
    ad_wrapper.load_state_dict(mm_state_dict, strict=False, assign=True)
    return ad_wrapper

unet_dtype = torch.float16                                           # the UNet runs in fp16
mm_state_dict = {k: v.float() for k, v in AnimateDiffModel().state_dict().items()}   # mm_sd_v15_v2.ckpt
motion_model = load_motion_module_gen2(mm_state_dict, unet_dtype)
h = torch.randn(16, 32, 8, 8).to(unet_dtype)                          # UNet hidden states, 16 frames
'''
CELL = '''
h = motion_model.down_blocks[0](h, video_length=16)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "must have the same dtype")
CULPRITS = ["motion_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    ad_wrapper.to(dtype)
    ad_wrapper.load_state_dict(mm_state_dict, strict=False, assign=True)""",
                  """    ad_wrapper.load_state_dict(mm_state_dict, strict=False, assign=True)
    ad_wrapper.to(dtype)""")
CLEAN = False
