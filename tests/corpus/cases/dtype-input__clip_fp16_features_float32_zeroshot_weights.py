"""CLIP zero-shot head: fp16 image features multiplied by float32 zero-shot class weights.

Source: https://github.com/jenellefeather/model_metamers_pytorch/issues/12
Generating metamers for the CLIP_ViT-B_32 network failed in the wrapper's forward at
`logits = 100. * image_features @ self.zeroshot_weights` with "expected scalar type Half but found
Float": CLIP loaded on the GPU comes back in float16, while the stored zero-shot weights are
float32. The reporter's fix casts `image_features` to float32 in that line (the maintainer then
built the model on the CPU, in float32). Stand-in: a tiny image encoder in half precision and the
wrapper with the same plain-tensor `zeroshot_weights` attribute.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class ImageEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(3, dim, 8, stride=8)
        self.proj = nn.Linear(dim, dim)

    def encode_image(self, x):
        return self.proj(self.conv(x).mean((2, 3)))

class CLIPZeroShot(nn.Module):
    def __init__(self, clip_model, zeroshot_weights):
        super().__init__()
        self.clip_model = clip_model
        self.zeroshot_weights = zeroshot_weights

    def forward(self, x):
        image_features = self.clip_model.encode_image(x.type(self.clip_model.conv.weight.dtype))
        image_features = image_features / image_features.norm(dim=-1, keepdim=True)
        logits = 100. * image_features @ self.zeroshot_weights
        return logits

clip_model = ImageEncoder().half()              # clip.load(...) on the GPU returns fp16
zeroshot_weights = torch.randn(16, 10)          # saved class weights, float32
model = CLIPZeroShot(clip_model, zeroshot_weights).eval()
images = torch.rand(2, 3, 32, 32)
'''
CELL = '''
with torch.no_grad():
    logits = model(images)
'''
EXPECT_ERROR = "expected m1 and m2 to have the same dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "logits = 100. * image_features @ self.zeroshot_weights",
    "logits = 100. * image_features.to(torch.float32) @ self.zeroshot_weights",
)
CLEAN = False
