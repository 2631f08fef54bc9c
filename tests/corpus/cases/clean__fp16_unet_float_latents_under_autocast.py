"""Look-alike: float32 latents into a float16 UNet, but inside an autocast region (legal).

Source: https://github.com/huggingface/diffusers/pull/6241
A PR proposed wrapping the pipeline in autocast to avoid "Input type (float) and bias type
(c10::Half) should be the same"; the maintainers: calling under autocast is the caller's job. Under
autocast the convolution casts its float32 input to float16, so this cell runs and no dtype
finding may be reported. (CPU autocast with float16 stands in for cuda autocast.)
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

unet = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))
unet = unet.to(torch.float16)
latents = torch.randn(1, 4, 16, 16)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    noise_pred = unet(latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
