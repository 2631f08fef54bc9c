"""LLaVA's CLIPVisionTower takes CPU images: its forward moves them to the tower's own device and dtype.

Source: https://github.com/haotian-liu/LLaVA/blob/main/llava/model/multimodal_encoder/clip_encoder.py
`CLIPVisionTower.forward` runs `self.vision_tower(images.to(device=self.device, dtype=self.dtype),
output_hidden_states=True)`, where `device`/`dtype` are properties read from the wrapped
CLIPVisionModel, and casts the selected features back to the input dtype. A preprocessed image batch
left on the CPU can be handed to a tower that lives on cuda:0; the projector then sees cuda features.
Look-alike: a CPU `images` tensor next to a GPU vision tower and projector; it runs.
Stand-ins: a toy CLIPVisionModel (patch linear + two encoder layers returning hidden states) with
HF's `device`/`dtype` properties; `mm_vision_select_feature="cls_patch"`, layer -2 as in LLaVA-1.5.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import types
import torch
import torch.nn as nn

class CLIPVisionModel(nn.Module):                  # transformers CLIPVisionModel (toy)
    def __init__(self, patch_dim=48, hidden=32):
        super().__init__()
        self.patch_embedding = nn.Linear(patch_dim, hidden)
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(2)])

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, pixel_values, output_hidden_states=False):
        h = self.patch_embedding(pixel_values)
        hidden_states = (h,)
        for layer in self.layers:
            h = h + torch.relu(layer(h))
            hidden_states = hidden_states + (h,)
        return types.SimpleNamespace(last_hidden_state=h, hidden_states=hidden_states)

class CLIPVisionTower(nn.Module):
    def __init__(self, vision_tower, args):
        super().__init__()
        self.vision_tower_name = vision_tower
        self.select_layer = args.mm_vision_select_layer
        self.select_feature = getattr(args, 'mm_vision_select_feature', 'patch')
        self.vision_tower = CLIPVisionModel()
        self.is_loaded = True

    def feature_select(self, image_forward_outs):
        image_features = image_forward_outs.hidden_states[self.select_layer]
        if self.select_feature == 'cls_patch':
            image_features = image_features
        else:
            raise ValueError(f'Unexpected select feature: {self.select_feature}')
        return image_features

    @torch.no_grad()
    def forward(self, images):
        image_forward_outs = self.vision_tower(images.to(device=self.device, dtype=self.dtype), output_hidden_states=True)
        image_features = self.feature_select(image_forward_outs).to(images.dtype)
        return image_features

    @property
    def dtype(self):
        return self.vision_tower.dtype

    @property
    def device(self):
        return self.vision_tower.device

args = types.SimpleNamespace(mm_vision_select_layer=-2, mm_vision_select_feature='cls_patch')
vision_tower = CLIPVisionTower("openai/clip-vit-large-patch14-336", args).to("cuda:0")
mm_projector = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64)).to("cuda:0")
images = torch.randn(2, 9, 48)                      # image_processor output, still on the CPU
'''
CELL = '''
with torch.no_grad():
    image_features = vision_tower(images)
    image_tokens = mm_projector(image_features)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
