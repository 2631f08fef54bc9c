"""infinity embedding server with SigLIP: the model is put in float16 but the image inputs stay float32.

Source: https://github.com/michaelfeil/infinity/issues/437
Serving `google/siglip-so400m-patch14-384` with default settings failed because "the model gets put
in float16 but the inputs stay in float32" (input type and weight type differ). The reporter points at
`encode_pre`/`encode_core` of the vision backend and asks to "modify the inputs to be the same type
as weights" when the engine dtype is float16/auto; the maintainer: "The image model wants
float32/float16/bfloat16. The text model wants int32 (tokens). Will ship a fix". Stand-in: a tiny
SigLIP-shaped vision tower (conv patch embedding + projection) and the backend's encode_pre/encode_core;
CPU (dtype bug only), bfloat16 in place of float16 for CPU kernels.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class SiglipVisionModel(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, d, kernel_size=8, stride=8)
        self.post_layernorm = nn.LayerNorm(d)
        self.head = nn.Linear(d, d)

    def get_image_features(self, pixel_values):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        return self.head(self.post_layernorm(x).mean(1))

class TorchImageModel:
    def __init__(self, dtype):
        self.model = SiglipVisionModel().eval()
        if dtype in ("float16", "auto"):
            self.model = self.model.to(torch.bfloat16)   # "float16" on the GPU in the report

    def encode_pre(self, images):
        # processor(images=..., return_tensors="pt")["pixel_values"]: float32
        return {"pixel_values": torch.stack(images)}

    def encode_core(self, features):
        with torch.no_grad():
            embeddings = self.model.get_image_features(**features)
        return embeddings

engine = TorchImageModel(dtype="auto")
images = [torch.rand(3, 32, 32) for _ in range(2)]
'''
CELL = '''
embeddings = engine.encode_core(engine.encode_pre(images))
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["features"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('return {"pixel_values": torch.stack(images)}',
                  'return {"pixel_values": torch.stack(images).to(self.model.patch_embedding.weight.dtype)}')
CLEAN = False
