"""Look-alike: text-generation-webui's multimodal LLaVA pipeline runs CLIP on the CPU in fp32, the projector on the GPU in fp16, and hands the embeddings to the LLM on its device and dtype.

Source: https://github.com/oobabooga/text-generation-webui/blob/main/extensions/multimodal/pipelines/llava/llava.py
`LLaVA_v0_Pipeline` reads `vision_device`/`vision_bits` and `projector_device`/`projector_bits`
separately; the projector's weight and bias are cast to `projector_dtype` before
`mm_projector.to(self.projector_device)`. `embed_images` moves the pixel values to
`(clip_device, clip_dtype)`, the selected CLIP hidden state to `(projector_device, projector_dtype)`,
and returns `image_features.to(shared.model.device, dtype=shared.model.dtype)`; `embed_tokens` does
the same for the text. Three placements and two dtypes on purpose; every op sees one of each.
Stand-ins: a one-layer "CLIPVisionModel" returning `hidden_states`, the image processor (PIL images
replaced by arrays), and `shared.model` (a fp16 LLaMA embedding on cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
import torch.nn as nn

class CLIPImageProcessor:
    def __call__(self, images, return_tensors="pt"):
        arr = np.stack([np.asarray(im, dtype=np.float32) / 255.0 for im in images])
        return {"pixel_values": torch.from_numpy(arr).permute(0, 3, 1, 2)}

class CLIPVisionModel(nn.Module):
    def __init__(self, hidden=64, patch=14):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, patch, stride=patch, bias=False)
        self.class_embedding = nn.Parameter(torch.zeros(hidden))
        self.layer = nn.Linear(hidden, hidden)
    def forward(self, pixel_values, output_hidden_states=True):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        x = torch.cat([self.class_embedding.expand(x.shape[0], 1, -1), x], dim=1)
        h1 = self.layer(x)
        return SimpleNamespace(hidden_states=(x, h1, self.layer(h1)))

class LlamaModel(nn.Module):
    def __init__(self, vocab=128, hidden=96):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
    @property
    def device(self):
        return self.embed_tokens.weight.device
    @property
    def dtype(self):
        return self.embed_tokens.weight.dtype

shared = SimpleNamespace(model=LlamaModel().half().to("cuda:0"))

class LLaVA_v0_Pipeline:
    def __init__(self, params):
        self.clip_device = torch.device(params["vision_device"])
        self.clip_dtype = torch.float32 if params["vision_bits"] == 32 else torch.float16
        self.projector_device = torch.device(params["projector_device"])
        self.projector_dtype = torch.float32 if params["projector_bits"] == 32 else torch.float16
        self.image_processor, self.vision_tower, self.mm_projector = self._load_models()

    def _load_models(self):
        image_processor = CLIPImageProcessor()
        vision_tower = CLIPVisionModel().to(self.clip_dtype).to(self.clip_device)
        mm_projector = torch.nn.Linear(64, 96)
        projector_data = {"model.mm_projector.weight": torch.randn(96, 64),
                          "model.mm_projector.bias": torch.zeros(96)}
        mm_projector.weight = torch.nn.Parameter(projector_data["model.mm_projector.weight"].to(dtype=self.projector_dtype), False)
        mm_projector.bias = torch.nn.Parameter(projector_data["model.mm_projector.bias"].to(dtype=self.projector_dtype), False)
        mm_projector = mm_projector.to(self.projector_device)
        return image_processor, vision_tower, mm_projector

    @staticmethod
    def embed_tokens(input_ids):
        return shared.model.embed_tokens(input_ids).to(shared.model.device, dtype=shared.model.dtype)

    def embed_images(self, images):
        images = self.image_processor(images, return_tensors="pt")["pixel_values"]
        images = images.to(self.clip_device, dtype=self.clip_dtype)
        with torch.no_grad():
            image_forward_outs = self.vision_tower(images, output_hidden_states=True)
            select_hidden_state_layer = -2
            select_hidden_state = image_forward_outs.hidden_states[select_hidden_state_layer]
            image_features = select_hidden_state[:, 1:].to(self.projector_device, dtype=self.projector_dtype)
            image_features = self.mm_projector(image_features)
        return image_features.to(shared.model.device, dtype=shared.model.dtype)

params = {"vision_device": "cpu", "vision_bits": 32, "projector_device": "cuda:0", "projector_bits": 16}
pipeline = LLaVA_v0_Pipeline(params)
images = [np.random.randint(0, 256, (56, 56, 3), dtype=np.uint8)]
input_ids = torch.randint(0, 128, (1, 10), device="cuda:0")
'''
CELL = '''
image_embeds = pipeline.embed_images(images)
text_embeds = pipeline.embed_tokens(input_ids)
inputs_embeds = torch.cat([text_embeds[:, :5], image_embeds, text_embeds[:, 5:]], dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
