"""Look-alike: ComfyUI_IPAdapter_plus keeps CLIP-vision embeddings on the intermediate device (CPU) and runs the GPU image_proj_model batch by batch, returning CPU embeds.

Source: https://github.com/cubiq/ComfyUI_IPAdapter_plus (utils.py `encode_image_masked_`: `out[1].to(model_management.intermediate_device())`;
IPAdapterPlus.py `IPAdapter.get_image_embeds`: `self.image_proj_model(ce.to(torch_device)).to(intermediate_device)`
for each `torch.split(clip_embed, batch_size)` chunk when encode_batch_size > 0)
CPU embeddings next to a GPU projection model, and CPU prompt embeds coming out of a GPU module: each chunk
is moved to the torch device for the projection and back to the intermediate device on purpose to save VRAM.
The cell runs. Stand-in: the two functions (same names) with a tiny CLIP vision tower and ImageProjModel.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def get_torch_device():                         # comfy.model_management
    return torch.device("cuda:0")

def intermediate_device():
    return torch.device("cpu")

class ClipVisionTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, 32, 16, stride=16)
        self.proj = nn.Linear(32, 32)
    def forward(self, pixel_values):
        h = self.patch(pixel_values).flatten(2).transpose(1, 2)
        return h, self.proj(h), self.proj(h.mean(1))   # last_hidden_state, penultimate, image_embeds

class ClipVision:
    def __init__(self):
        self.load_device = get_torch_device()
        self.model = ClipVisionTower().to(self.load_device)

def encode_image_masked_(clip_vision, image, batch_size=0):
    if batch_size == 0 or batch_size > image.shape[0]:
        batch_size = image.shape[0]
    outputs = {}
    for img in torch.split(image, batch_size, dim=0):
        pixel_values = img.to(clip_vision.load_device).movedim(-1, 1).float()
        out = clip_vision.model(pixel_values)
        pen = out[1].to(intermediate_device())
        outputs["penultimate_hidden_states"] = pen if "penultimate_hidden_states" not in outputs else torch.cat([outputs["penultimate_hidden_states"], pen])
    return outputs

class ImageProjModel(nn.Module):
    def __init__(self, cross_attention_dim=64, clip_embeddings_dim=32, clip_extra_context_tokens=4):
        super().__init__()
        self.cross_attention_dim = cross_attention_dim
        self.clip_extra_context_tokens = clip_extra_context_tokens
        self.proj = nn.Linear(clip_embeddings_dim, clip_extra_context_tokens * cross_attention_dim)
        self.norm = nn.LayerNorm(cross_attention_dim)
    def forward(self, image_embeds):
        x = self.proj(image_embeds.mean(1)).reshape(-1, self.clip_extra_context_tokens, self.cross_attention_dim)
        return self.norm(x)

class IPAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_proj_model = ImageProjModel()

    @torch.inference_mode()
    def get_image_embeds(self, clip_embed, clip_embed_zeroed, batch_size):
        torch_device = get_torch_device()
        intermediate_device_ = intermediate_device()
        if batch_size == 0:
            batch_size = clip_embed.shape[0]
            intermediate_device_ = torch_device
        elif batch_size > clip_embed.shape[0]:
            batch_size = clip_embed.shape[0]
        clip_embed = torch.split(clip_embed, batch_size, dim=0)
        clip_embed_zeroed = torch.split(clip_embed_zeroed, batch_size, dim=0)
        image_prompt_embeds = []
        uncond_image_prompt_embeds = []
        for ce, cez in zip(clip_embed, clip_embed_zeroed):
            image_prompt_embeds.append(self.image_proj_model(ce.to(torch_device)).to(intermediate_device_))
            uncond_image_prompt_embeds.append(self.image_proj_model(cez.to(torch_device)).to(intermediate_device_))
        return torch.cat(image_prompt_embeds, dim=0), torch.cat(uncond_image_prompt_embeds, dim=0)

clipvision = ClipVision()
ipa = IPAdapter().to(get_torch_device())
image = torch.rand(4, 64, 64, 3)                                   # LoadImage batch (CPU)
img_cond_embeds = encode_image_masked_(clipvision, image, batch_size=2)["penultimate_hidden_states"]
img_uncond_embeds = encode_image_masked_(clipvision, torch.zeros(4, 64, 64, 3), batch_size=2)["penultimate_hidden_states"]
'''
CELL = '''
cond, uncond = ipa.get_image_embeds(img_cond_embeds, img_uncond_embeds, batch_size=2)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
