"""Stable Diffusion WebUI Forge with a ControlNet-LLLite model: the LLLite modules keep the dtype of their fp16 checkpoint while the UNet runs in float32.

Source: https://github.com/lllyasviel/stable-diffusion-webui-forge/pull/1665
"Set controlllite module dtype to model dtype" (addressing issues #1641, #1488, #1392 with the
kohya controlllite and bdsqlsz LLLite models): the LLLite control modules are built from their
state dict and patched into the UNet's attention inputs, but they were never cast to the dtype
the UNet computes in, so a float32 UNet feeds float32 activations (and the control image cast to
them) into fp16 LLLite convs/linears. The fix sets the LLLite modules' dtype to the model's dtype
when the patch is applied.
Stand-ins: kohya's `LLLiteModule` (conditioning convs, down/mid/up linears), a patcher that loads
it from an fp16 state dict and attaches it to a cross-attention's q input, a tiny UNet block in
float32 (`--no-half`); CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class LLLiteModule(nn.Module):
    def __init__(self, name, in_dim, cond_emb_dim=16, mlp_dim=16):
        super().__init__()
        self.name = name
        self.conditioning1 = nn.Sequential(nn.Conv2d(3, cond_emb_dim // 2, kernel_size=4, stride=4), nn.ReLU(inplace=True),
                                           nn.Conv2d(cond_emb_dim // 2, cond_emb_dim, kernel_size=2, stride=2))
        self.down = nn.Sequential(nn.Linear(in_dim, mlp_dim), nn.ReLU(inplace=True))
        self.mid = nn.Sequential(nn.Linear(mlp_dim + cond_emb_dim, mlp_dim), nn.ReLU(inplace=True))
        self.up = nn.Sequential(nn.Linear(mlp_dim, in_dim))
        self.cond_image = None
        self.cond_emb = None
        self.multiplier = 1.0

    def set_cond_image(self, cond_image):
        self.cond_image = cond_image
        self.cond_emb = None

    def forward(self, x):
        if self.cond_emb is None:
            cx = self.conditioning1(self.cond_image.to(x.device, dtype=x.dtype))
            self.cond_emb = cx.flatten(2).transpose(1, 2)
        cx = torch.cat([self.cond_emb.expand(x.shape[0], -1, -1), self.down(x)], dim=2)
        return self.up(self.mid(cx)) * self.multiplier

class CrossAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.lllite = None

    def forward(self, x):
        q_in = x if self.lllite is None else x + self.lllite(x)
        q, k, v = self.to_q(q_in), self.to_k(x), self.to_v(x)
        return torch.softmax(q @ k.transpose(1, 2) / q.shape[-1] ** 0.5, -1) @ v

class UNetBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj_in = nn.Conv2d(4, dim, 1)
        self.attn1 = CrossAttention(dim)
        self.proj_out = nn.Conv2d(dim, 4, 1)

    def forward(self, x):
        b, _, h, w = x.shape
        hs = self.proj_in(x).flatten(2).transpose(1, 2)
        hs = hs + self.attn1(hs)
        return self.proj_out(hs.transpose(1, 2).reshape(b, -1, h, w))

class ControlLLLitePatcher:
    def __init__(self, state_dict, cond_image):
        self.module = LLLiteModule("lllite_unet_attn1_to_q", in_dim=32)
        self.module.load_state_dict(state_dict)
        self.module.to(state_dict["up.0.weight"].dtype)       # keeps the checkpoint's dtype
        self.module.set_cond_image(cond_image)

    def apply(self, unet):
        unet.attn1.lllite = self.module
        return unet

unet = UNetBlock().float()                         # --no-half: the UNet computes in float32
lllite_sd = {k: v.half() for k, v in LLLiteModule("x", in_dim=32).state_dict().items()}   # kohya_controllllite_xl_depth.safetensors (fp16)
control_image = torch.rand(1, 3, 32, 32)
patcher = ControlLLLitePatcher(lllite_sd, control_image)
unet = patcher.apply(unet)
latents = torch.randn(1, 4, 4, 4)
'''
CELL = '''
with torch.no_grad():
    noise_pred = unet(latents)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["patcher.module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        unet.attn1.lllite = self.module\n",
                  "        self.module.to(dtype=next(unet.parameters()).dtype)\n        unet.attn1.lllite = self.module\n")
CLEAN = False
