"""comfyui-instantId-faceswap hard-codes float16 for its models; on a GTX 1660 Ti ComfyUI runs in float32 and the face embedding arrives as float.

Source: https://github.com/nosiu/comfyui-instantId-faceswap/pull/63
"expected scalar type Half but found Float" on a 1660 Ti running the simple workflow. The PR author
found `dtype` hard-coded to fp16 in the node, while ComfyUI upcasts to fp32 on that card (no usable
fp16), so the float32 face embedding meets the half-precision image-projection (Resampler) weights;
the fix copies cubiq's ComfyUI_InstantID logic and takes the dtype from
`comfy.model_management.unet_dtype()`. Run on the CPU (a dtype bug); the Resampler is a small
stand-in, insightface's embedding a random vector.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def unet_dtype():                                # comfy.model_management.unet_dtype() on a 1660 Ti
    return torch.float32

class Resampler(nn.Module):
    def __init__(self, dim=32, num_queries=16, embedding_dim=512, output_dim=64):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(1, num_queries, dim) / dim ** 0.5)
        self.proj_in = nn.Linear(embedding_dim, dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.proj_out = nn.Linear(dim, output_dim)
        self.norm_out = nn.LayerNorm(output_dim)

    def forward(self, x):
        latents = self.latents.repeat(x.size(0), 1, 1)
        x = self.proj_in(x)
        latents = latents + self.attn(latents, x, x, need_weights=False)[0]
        return self.norm_out(self.proj_out(latents))

class InstantIdModel:
    def __init__(self, device="cpu"):
        dtype = torch.float16
        self.image_proj_model = Resampler().to(device, dtype=dtype)
        self.dtype = dtype

def load_instantid(path):
    return InstantIdModel()

def get_image_embeds(instantid, face_embed):
    face_embed = face_embed.to(unet_dtype())
    prompt_image_emb = instantid.image_proj_model(face_embed)
    uncond = instantid.image_proj_model(torch.zeros_like(face_embed))
    return prompt_image_emb, uncond

instantid = load_instantid("ip-adapter.bin")
face_embed = torch.randn(1, 1, 512)              # insightface face_info.embedding
'''
CELL = '''
cond, uncond = get_image_embeds(instantid, face_embed)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "should be the same")
CULPRITS = ["instantid.image_proj_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype = torch.float16", "dtype = unet_dtype()")
CLEAN = False
