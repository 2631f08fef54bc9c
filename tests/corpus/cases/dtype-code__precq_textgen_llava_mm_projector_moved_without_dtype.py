"""text-generation-webui multimodal LLaVA pipeline: the projector is moved to its device but never cast to `projector_bits`, so fp16 image features hit a float32 `mm_projector`.

Source: https://github.com/oobabooga/textgen/issues/4644
"multimodal `mm_projector` dtype can't be set correctly": with `"multimodal-projector_bits": 16`,
chatting with an image fails (mat1 and mat2 dtype mismatch). In
`extensions/multimodal/pipelines/llava/llava.py` `_load_models` builds the projector (float32 by
default), loads the projector weights into it and does
`mm_projector = mm_projector.to(self.projector_device)` without the dtype, while `embed_images`
casts the CLIP features to `self.projector_dtype` (fp16) before calling it. The reported fix:
`mm_projector = mm_projector.to(self.projector_device, dtype=self.projector_dtype)`.
Stand-ins: the pipeline class with `_get_dtype`, a small CLIP-like vision tower loaded in fp16
(`torch_dtype=self.clip_dtype`), a LLaVA v1.5 two-layer projector with a random state dict instead
of the hub download; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class CLIPVisionModel(nn.Module):
    def __init__(self, hidden=32, patches=16):
        super().__init__()
        self.patch = nn.Linear(48, hidden)
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(3)])
        self.cls = nn.Parameter(torch.zeros(1, 1, hidden))

    @classmethod
    def from_pretrained(cls, repo, torch_dtype=torch.float32):
        return cls().to(torch_dtype)

    def forward(self, pixel_values, output_hidden_states=True):
        b = pixel_values.shape[0]
        h = self.patch(pixel_values.reshape(b, 3, 4, 4, 4, 4).permute(0, 2, 4, 1, 3, 5).reshape(b, 16, 48))
        h = torch.cat([self.cls.expand(b, -1, -1), h], 1)
        hidden_states = [h]
        for layer in self.layers:
            h = h + torch.tanh(layer(h))
            hidden_states.append(h)
        return SimpleNamespace(hidden_states=tuple(hidden_states))

def image_processor(images, return_tensors="pt"):
    return {"pixel_values": torch.stack([img.float() / 255.0 for img in images])}

class LLaVA_v1_5_13B_Pipeline:
    CLIP_REPO = "openai/clip-vit-large-patch14-336"

    def __init__(self, params):
        self.clip_device = params.get("vision_device", "cpu")
        self.clip_dtype = self._get_dtype("vision_bits", params)
        self.projector_device = params.get("projector_device", "cpu")
        self.projector_dtype = self._get_dtype("projector_bits", params)
        self.image_processor, self.vision_tower, self.mm_projector = self._load_models()

    @staticmethod
    def _get_dtype(key, params):
        return torch.float32 if int(params.get(key, 32)) == 32 else torch.float16

    def build_mm_projector(self):
        return nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64))

    def _load_models(self):
        vision_tower = CLIPVisionModel.from_pretrained(self.CLIP_REPO, torch_dtype=self.clip_dtype).to(self.clip_device)
        mm_projector = self.build_mm_projector()
        projector_data = {k: torch.randn_like(v).half() for k, v in mm_projector.state_dict().items()}   # torch.load(hf_hub_download(...))
        mm_projector.load_state_dict(projector_data)
        mm_projector = mm_projector.to(self.projector_device)
        return image_processor, vision_tower, mm_projector

    @torch.no_grad()
    def embed_images(self, images):
        images = self.image_processor(images, return_tensors='pt')['pixel_values']
        images = images.to(self.clip_device, dtype=self.clip_dtype)
        image_forward_outs = self.vision_tower(images, output_hidden_states=True)
        select_hidden_state = image_forward_outs.hidden_states[-2]
        image_features = select_hidden_state[:, 1:].to(self.projector_device, dtype=self.projector_dtype)
        return self.mm_projector(image_features)

params = {"vision_device": "cpu", "vision_bits": 16, "projector_device": "cpu", "projector_bits": 16}
pipeline = LLaVA_v1_5_13B_Pipeline(params)
image = torch.randint(0, 256, (3, 16, 16), dtype=torch.uint8)
'''
CELL = '''
image_features = pipeline.embed_images([image])
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["pipeline.mm_projector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mm_projector = mm_projector.to(self.projector_device)",
                  "mm_projector = mm_projector.to(self.projector_device, dtype=self.projector_dtype)")
CLEAN = False
