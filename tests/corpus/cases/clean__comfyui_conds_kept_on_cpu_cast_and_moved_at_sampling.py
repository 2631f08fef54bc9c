"""Look-alike: ComfyUI keeps CONDITIONING on the CPU in float32 and casts it to the model's dtype while moving it to the device at sampling time.

Source: https://github.com/Comfy-Org/ComfyUI/pull/9159
"Lower cond vram use by casting at the same time as device transfer": conditioning tensors live on
the intermediate device (CPU) between nodes, in float32, inside the `[[cond, {"pooled_output": ...}]]`
list structure; the sampler converts them for the model with one `.to(device, dtype=...)` per tensor
right before the UNet call. A CPU float32 container next to a float16 GPU model, by design; the cell
runs. Stand-in: the cond conversion and a small float16 SDXL-style UNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

class SDXLUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 32, 3, padding=1)
        self.context_proj = nn.Linear(64, 32)
        self.label_emb = nn.Linear(64, 32)
        self.conv_out = nn.Conv2d(32, 4, 3, padding=1)

    def forward(self, x, t, context, y):
        h = self.conv_in(x) + (self.context_proj(context).mean(1) + self.label_emb(y))[:, :, None, None]
        return self.conv_out(h)

class BaseModel:
    def __init__(self):
        self.diffusion_model = SDXLUNet().to(device, dtype=torch.float16)
        self.manual_cast_dtype = None

    def get_dtype(self):
        return next(self.diffusion_model.parameters()).dtype

    def apply_model(self, x, t, c_crossattn, y):
        dtype = self.get_dtype()
        context = c_crossattn.to(device, dtype=dtype)       # cast together with the device transfer
        y = y.to(device, dtype=dtype)
        return self.diffusion_model(x.to(dtype), t, context=context, y=y).float()

def convert_cond(cond):
    out = []
    for c in cond:
        temp = c[1].copy()
        temp["cross_attn"] = c[0]
        out.append(temp)
    return out

model = BaseModel()
positive = [[torch.randn(1, 77, 64), {"pooled_output": torch.randn(1, 64)}]]   # CLIPTextEncode (CPU, float32)
x = torch.randn(1, 4, 16, 16, device=device)
t = torch.tensor([999.0], device=device)
'''
CELL = '''
conds = convert_cond(positive)
eps = model.apply_model(x, t, c_crossattn=conds[0]["cross_attn"], y=conds[0]["pooled_output"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
