"""SAM3 on the CPU: the checkpoint stores its weights in bfloat16 and loading keeps that dtype, while the preprocessed image is float32.

Source: https://github.com/openvinotoolkit/openvino_notebooks/pull/3452
"[sam3] Fix BFloat16 dtype mismatch on CPU inference": besides the fused addmm kernel, "SAM3
checkpoint stores weights in bfloat16. Added model.float() to cast to float32 for CPU inference."
Loading the checkpoint by assignment (`load_state_dict(..., assign=True)`, as meta-initialised
builders do) gives the model the checkpoint's bf16 parameters; the image processor produces float32
pixels, so the first projection fails with a dtype mismatch. Stand-in: a patch-embed + MLP image
encoder built on the meta device and filled from a bf16 state dict; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class ImageEncoder(nn.Module):
    def __init__(self, d=32, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, d, patch, patch)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, pixel_values):
        x = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        return x + self.mlp(x)

def build_sam3_image_model(checkpoint_path):
    with torch.device("meta"):
        model = ImageEncoder()
    ckpt = {k: v.to(torch.bfloat16) for k, v in ImageEncoder().state_dict().items()}   # torch.load(checkpoint_path, map_location="cpu")
    model.load_state_dict(ckpt, assign=True)
    return model.eval()

model = build_sam3_image_model("sam3.pt")
pixel_values = torch.rand(1, 3, 64, 64)        # Sam3Processor output, float32
'''
CELL = '''
with torch.no_grad():
    image_embeddings = model(pixel_values)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.float()
'''
REFERENCE_EDIT = None
CLEAN = False
