"""OpenCLIP model cast wholesale with `.to(torch.bfloat16)`: its LayerNormFp32 now holds bf16 weights for fp32 math.

Source: https://github.com/mlfoundations/open_clip/issues/916
"RuntimeError: expected scalar type Float but found BFloat16" in `F.layer_norm`. The maintainer: "the
weights are probably bfloat16 because model was cast to lower precision [and] LayerNormFp32 was not
handled correctly"; OpenCLIP's own low-precision cast keeps those norms in float32, because
`LayerNormFp32.forward` upcasts its input to float32 and expects float32 weight and bias. Stand-in: a
ViT tower reduced to patch embedding, one LayerNormFp32 and the projection. Run on the CPU (the CPU
kernel words it "mixed dtype (CPU)").
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LayerNormFp32(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16/bf16 (by casting to float32 and back)."""
    def forward(self, x):
        orig_type = x.dtype
        x = F.layer_norm(x.to(torch.float32), self.normalized_shape, self.weight, self.bias, self.eps)
        return x.to(orig_type)

class VisionTransformer(nn.Module):
    def __init__(self, patch=8, width=32, output_dim=16):
        super().__init__()
        self.patch = patch
        self.patch_embed = nn.Linear(3 * patch * patch, width)
        self.ln_post = LayerNormFp32(width)
        self.proj = nn.Parameter(torch.randn(width, output_dim) * width ** -0.5)

    def forward(self, x):
        b = x.shape[0]
        x = x.unfold(2, self.patch, self.patch).unfold(3, self.patch, self.patch)
        x = x.permute(0, 2, 3, 1, 4, 5).reshape(b, -1, 3 * self.patch * self.patch)
        x = self.patch_embed(x).mean(dim=1)
        return self.ln_post(x) @ self.proj

class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = VisionTransformer()

    def encode_image(self, image):
        return self.visual(image)

model = CLIP().eval()
model.to(torch.bfloat16)
image = torch.randn(2, 3, 32, 32).to(torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    image_features = model.encode_image(image)
'''
EXPECT_ERROR = ("mixed dtype (CPU)", "expected scalar type Float but found BFloat16")
CULPRITS = ["model.visual.ln_post.weight", "model.visual.ln_post.bias"]
FIX = "namespace"
REFERENCE_FIX = '''
model.visual.ln_post.float()
'''
REFERENCE_EDIT = None
CLEAN = False
