"""clip-as-service `CLIPTorchEncoder` on a GPU with an fp16 CLIP: float32 pixel tensors meet the half-precision visual conv.

Source: https://github.com/jina-ai/clip-as-service/issues/800
Running the `CLIPTorchEncoder` executor (`ViT-L-14-336::openai`, `latest-gpu`) for DALL-E Flow failed with
"RuntimeError: expected scalar type Float but found Half": on cuda the server loads the CLIP weights in
float16, while the preprocessed image batch is float32 and was passed to `encode_image` uncast. The fix
(PR #801, "cast dtype for fp16") casts the inputs to the model's dtype. Stand-ins: a tiny CLIP visual
tower (patch conv + LayerNorm + projection) built in float16, and the executor's encode path; CPU run
(dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class VisualTransformer(nn.Module):
    def __init__(self, width=32, out=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=14, stride=14, bias=False)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Linear(width, out, bias=False)
    def forward(self, x):
        x = self.conv1(x).flatten(2).mean(-1)
        return self.proj(self.ln_post(x))

class CLIPModel(nn.Module):
    def __init__(self, dtype):
        super().__init__()
        self.visual = VisualTransformer()
        self.to(dtype)
    def encode_image(self, pixel_values):
        return self.visual(pixel_values)

class CLIPTorchEncoder:
    def __init__(self, name="ViT-L-14-336::openai", device="cuda"):
        self._dtype = torch.float16 if device.startswith("cuda") else torch.float32
        self._model = CLIPModel(self._dtype)

    def _preproc_images(self, images):
        return torch.stack([img.float() / 255.0 for img in images])

    def encode(self, images):
        pixel_values = self._preproc_images(images)
        with torch.inference_mode():
            return self._model.encode_image(pixel_values)

encoder = CLIPTorchEncoder(name="ViT-L-14-336::openai", device="cuda")
images = [torch.randint(0, 256, (3, 56, 56), dtype=torch.uint8) for _ in range(2)]
'''
CELL = '''
embeddings = encoder.encode(images)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.stack([img.float() / 255.0 for img in images])",
                  "return torch.stack([img.float() / 255.0 for img in images]).to(self._dtype)")
CLEAN = False
