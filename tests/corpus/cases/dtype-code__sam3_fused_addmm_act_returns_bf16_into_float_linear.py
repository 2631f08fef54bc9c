"""SAM 3 image inference: the fused `addmm_act` used by the ViT MLPs computes in bfloat16 and returns bfloat16 into a float32 Linear.

Source: https://github.com/facebookresearch/sam3/issues/507
"RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float during image
inference". Without autocast and with gradients off (inference), `sam3/perflib/fused.py` `addmm_act`
casts the bias, input and weight to bfloat16, runs the fused addmm+activation and returns the bfloat16
result, so the MLP's next `fc2` (float32 weights) receives a bfloat16 input. The fix discussed in the
thread casts the result back to `mat1_dtype`. Stand-in: `addmm_act` with `torch.addmm` + activation for
the fused kernel, a two-block ViT image encoder, and the processor's `set_image`.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def addmm_act_op(self, mat1, mat2, beta=1, alpha=1, use_gelu=False):     # the fused CUDA op
    y = torch.addmm(self, mat1, mat2, beta=beta, alpha=alpha)
    return F.gelu(y) if use_gelu else F.relu(y)

def addmm_act(activation, linear, mat1):
    if torch.is_grad_enabled():
        out = linear(mat1)
        if activation in [torch.nn.functional.relu, torch.nn.ReLU]:
            return torch.nn.functional.relu(out)
        if activation in [torch.nn.functional.gelu, torch.nn.GELU]:
            return torch.nn.functional.gelu(out)
        raise ValueError(f"Unexpected activation {activation}")
    self = linear.bias.detach()
    mat2 = linear.weight.detach()
    mat1_dtype = mat1.dtype
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
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        x = addmm_act(type(self.act), self.fc1, x)
        return self.fc2(x)

class Block(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.mlp = Mlp(dim, 4 * dim)

    def forward(self, x):
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        x = x + self.proj(F.scaled_dot_product_attention(q, k, v))
        return x + self.mlp(self.norm2(x))

class ViT(nn.Module):
    def __init__(self, dim=32, depth=2, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = blk(x)
        return x

class Sam3Image(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = ViT()

    def forward_image(self, image):
        return {"vision_features": self.backbone(image)}

class Sam3Processor:
    def __init__(self, model, resolution=64):
        self.model, self.resolution = model, resolution

    @torch.inference_mode()
    def set_image(self, image, state=None):
        state = {} if state is None else state
        image = F.interpolate(image.unsqueeze(0), size=(self.resolution, self.resolution), mode="bilinear")
        state["backbone_out"] = self.model.forward_image((image - 0.5) / 0.5)
        return state

model = Sam3Image().eval()                  # build_sam3_image_model(); float32 weights, no autocast
processor = Sam3Processor(model)
image = torch.rand(3, 80, 96)               # Image.open(...) as a tensor
'''
CELL = '''
inference_state = processor.set_image(image)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        y = addmm_act_op(self, mat1_flat, mat2.t(), beta=1, alpha=1, use_gelu=True)\n        return y.view(",
                  "        y = addmm_act_op(self, mat1_flat, mat2.t(), beta=1, alpha=1, use_gelu=True).to(mat1_dtype)\n        return y.view(")
CLEAN = False
