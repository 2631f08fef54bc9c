"""segment-geospatial `SamGeo3` (SAM 3, Meta backend): the fused MLP kernel hard-casts activations to bfloat16.

Source: https://github.com/opengeos/segment-geospatial/pull/541
A sam3 release added `sam3/perflib/fused.py::addmm_act`, which casts the bias, weight and input of
the ViTDet MLP's `fc1` to bfloat16 and returns a bfloat16 activation, "while the model's Linear
weights remain float32. This makes the Meta-backend forward pass raise 'mat1 and mat2 must have the
same dtype, but got BFloat16 and Float' in the ViTDet MLP" (`fc2`). The merged fix runs the Meta
backend's forward calls (`set_image`, text prompts, ...) under a bfloat16 autocast context
"matching how Meta runs the model".
Stand-ins: sam3's `addmm_act`, a one-block ViTDet image encoder, `Sam3Processor.set_image` and
`SamGeo3.set_image`. The report is on CUDA; the simulation runs the same code on the CPU, so the
reference edit opens the autocast context for the model's device type (`torch.autocast("cpu",
torch.bfloat16)` here, `"cuda"` in the merged `_meta_autocast()`).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

addmm_act_op = torch.ops.aten._addmm_activation


def addmm_act(activation, linear, mat1):            # sam3/perflib/fused.py
    if torch.is_grad_enabled():
        raise ValueError("Expected grad to be disabled.")
    self = linear.bias.detach()
    mat2 = linear.weight.detach()
    self = self.to(torch.bfloat16)
    mat1 = mat1.to(torch.bfloat16)
    mat2 = mat2.to(torch.bfloat16)
    mat1_flat = mat1.view(-1, mat1.shape[-1])
    if activation in [torch.nn.functional.relu, torch.nn.ReLU]:
        y = addmm_act_op(self, mat1_flat, mat2.t(), beta=1, alpha=1, use_gelu=False)
        return y.view(mat1.shape[:-1] + (y.shape[-1],))
    if activation in [torch.nn.functional.gelu, torch.nn.GELU]:
        y = addmm_act_op(self, mat1_flat, mat2.t(), beta=1, alpha=1, use_gelu=True)
        return y.view(mat1.shape[:-1] + (y.shape[-1],))
    raise ValueError(f"Unexpected activation {activation}")


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features, act_layer=nn.GELU):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden_features, in_features)

    def forward(self, x):
        x = addmm_act(type(self.act), self.fc1, x)
        return self.fc2(x)


class Block(nn.Module):
    def __init__(self, dim, mlp_ratio=4.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim, int(dim * mlp_ratio))

    def forward(self, x):
        x = self.norm1(x)
        return x + self.mlp(self.norm2(x))


class ViT(nn.Module):                               # sam3 vitdet backbone
    def __init__(self, img_size=64, patch_size=16, embed_dim=32, depth=1):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, patch_size, stride=patch_size)
        self.blocks = nn.ModuleList([Block(embed_dim) for _ in range(depth)])

    def forward(self, x):
        x = self.patch_embed(x).permute(0, 2, 3, 1)
        for blk in self.blocks:
            x = blk(x)
        return x.permute(0, 3, 1, 2)


class Sam3Image(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = ViT()

    def forward_image(self, images):
        return {"vision_features": self.backbone(images)}


class Sam3Processor:
    def __init__(self, model, resolution=64, device="cpu"):
        self.model = model
        self.resolution = resolution
        self.device = device

    @torch.inference_mode()
    def set_image(self, image, state=None):
        state = {} if state is None else state
        img = torch.from_numpy(np.asarray(image)).permute(2, 0, 1).float().div(255.0).to(self.device)
        img = F.interpolate(img[None], size=(self.resolution, self.resolution), mode="bilinear")
        img = (img - 0.5) / 0.5
        state["original_height"], state["original_width"] = np.asarray(image).shape[:2]
        state["backbone_out"] = self.model.forward_image(img)
        return state


def build_sam3_image_model(device="cpu"):
    return Sam3Image().to(device).eval()


class SamGeo3:
    def __init__(self, backend="meta", device=None):
        self.backend = backend
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = build_sam3_image_model(device=self.device)
        self.processor = Sam3Processor(self.model, device=self.device)
        self.inference_state = None

    def set_image(self, image, state=None):
        image_for_processor = image
        if self.backend == "meta":
            self.inference_state = self.processor.set_image(
                image_for_processor, state=state
            )
        return self.inference_state


sam = SamGeo3(backend="meta")
image = (np.random.rand(128, 128, 3) * 255).astype(np.uint8)     # an RGB aerial tile read with rasterio
'''
CELL = '''
sam.set_image(image)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["sam"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            self.inference_state = self.processor.set_image(
                image_for_processor, state=state
            )""",
    """            with torch.autocast(device_type=torch.device(self.device).type, dtype=torch.bfloat16):
                self.inference_state = self.processor.set_image(
                    image_for_processor, state=state
                )""",
)
CLEAN = False
