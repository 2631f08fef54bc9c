"""BLIP-2 blog notebook: the processor's pixel values stay float32 on the CPU, the model is float16 on the GPU.

Source: https://github.com/huggingface/blog/issues/899
Running "Zero-shot image-to-text generation with BLIP-2", the reporter's cell was
`inputs = processor(image, return_tensors="pt")` then `model.generate(**inputs, max_new_tokens=20)`
and the vision embeddings' convolution raised "Input type (float) and bias type (c10::Half) should
be the same". The model had been loaded with `torch_dtype=torch.float16` and moved with
`model.to(device)`; the blog's line is `processor(image, return_tensors="pt").to(device, torch.float16)`.
Stand-in: Blip2ForConditionalGeneration's generate path at toy size and a BatchFeature-like dict.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class BatchFeature(dict):
    def to(self, *args):
        device = next((a for a in args if not isinstance(a, torch.dtype)), None)
        dtype = next((a for a in args if isinstance(a, torch.dtype)), None)
        out = BatchFeature()
        for k, v in self.items():
            v = v.to(device) if device is not None else v
            out[k] = v.to(dtype) if dtype is not None and torch.is_floating_point(v) else v
        return out

class Blip2VisionEmbeddings(nn.Module):
    def __init__(self, embed_dim=32, patch=8):
        super().__init__()
        self.class_embedding = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.patch_embedding = nn.Conv2d(3, embed_dim, kernel_size=patch, stride=patch)

    def forward(self, pixel_values):
        patch_embeds = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        class_embeds = self.class_embedding.expand(pixel_values.shape[0], 1, -1).to(patch_embeds.dtype)
        return torch.cat([class_embeds, patch_embeds], dim=1)

class Blip2ForConditionalGeneration(nn.Module):
    def __init__(self, hidden=32, vocab=64):
        super().__init__()
        self.vision_model = Blip2VisionEmbeddings(hidden)
        self.query_tokens = nn.Parameter(torch.zeros(1, 4, hidden))
        self.qformer = nn.Linear(hidden, hidden)
        self.language_projection = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @torch.no_grad()
    def generate(self, pixel_values, input_ids=None, attention_mask=None, max_new_tokens=20):
        image_embeds = self.vision_model(pixel_values)
        query_output = self.qformer(self.query_tokens + image_embeds.mean(1, keepdim=True))
        language_model_inputs = self.language_projection(query_output)
        return self.lm_head(language_model_inputs).argmax(-1)

model = Blip2ForConditionalGeneration()   # from_pretrained("Salesforce/blip2-opt-2.7b", torch_dtype=torch.float16)
model = model.half()
device = "cuda:0"   # "cuda" if torch.cuda.is_available() else "cpu", on a Colab GPU
model.to(device)
image = (np.random.rand(32, 32, 3) * 255).astype(np.uint8)     # Image.open(...).convert("RGB")

def processor(image, return_tensors="pt"):
    pixel_values = torch.from_numpy(image).permute(2, 0, 1).float().div(255).unsqueeze(0)
    return BatchFeature(pixel_values=pixel_values)

inputs = processor(image, return_tensors="pt")
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=20)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["inputs['pixel_values']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(device, torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
