"""BoxMOT CLIP-ReID with `--half`: CLIP's fp16-safe LayerNorm feeds float32 activations to LayerNorm weights that `model.half()` made fp16.

Source: https://github.com/mikel-brostrom/boxmot/pull/1820
`python track.py ... --reid-model=clip_market1501.pt --half` failed in `F.layer_norm`: "expected
scalar type Float but found Half". The ReID backend calls `model.half()` for `--half`, which also
halves the LayerNorm parameters, while CLIP's `LayerNorm` subclass ("to handle fp16") computes
`super().forward(x.type(torch.float32))` -- float32 input, fp16 weight and bias. The merged fix
makes the subclass move fp16 parameters back to float32 before normalizing
(`for param in self.parameters(): if param.dtype == torch.float16: param.data = param.data.to(torch.float32)`).
Stand-ins: the CLIP-ReID visual transformer reduced to patch conv, class/positional embeddings,
`ln_pre`, two residual attention blocks and `ln_post`/projection, with CLIP's LayerNorm as before
the fix; random crops instead of detections; CPU (dtype bug only -- the CPU message is "mixed dtype").
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

class LayerNorm(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16."""

    def forward(self, x: torch.Tensor):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)

class QuickGELU(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)

class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([("c_fc", nn.Linear(d_model, d_model * 4)), ("gelu", QuickGELU()),
                                              ("c_proj", nn.Linear(d_model * 4, d_model))]))
        self.ln_2 = LayerNorm(d_model)

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))

class VisionTransformer(nn.Module):
    def __init__(self, h_resolution=4, w_resolution=2, patch_size=8, width=32, layers=2, heads=4, output_dim=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width ** -0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn(h_resolution * w_resolution + 1, width))
        self.ln_pre = LayerNorm(width)
        self.transformer = nn.Sequential(*[ResidualAttentionBlock(width, heads) for _ in range(layers)])
        self.ln_post = LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x):
        x = self.conv1(x)
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)
        x = torch.cat([self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device), x], dim=1)
        x = x + self.positional_embedding.to(x.dtype)
        x = self.ln_pre(x).permute(1, 0, 2)
        x = self.transformer(x).permute(1, 0, 2)
        return self.ln_post(x[:, 0]) @ self.proj

half = True                                   # --half
model = VisionTransformer().eval()            # build_model(clip_market1501.pt) -> image encoder
if half:
    model.half()
crops = torch.rand(4, 3, 32, 16)              # get_crops(xyxys, img) resized to 256x128, normalised
im_batch = crops.half() if half else crops
'''
CELL = '''
with torch.no_grad():
    features = model(im_batch)
'''
EXPECT_ERROR = ("expected scalar type", "mixed dtype", "same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        orig_type = x.dtype\n        ret = super().forward(x.type(torch.float32))",
                  "        orig_type = x.dtype\n        for param in self.parameters():\n            if param.dtype == torch.float16:\n                param.data = param.data.to(torch.float32)\n        ret = super().forward(x.type(torch.float32))")
CLEAN = False
