"""WatermarkRemover-AI: Florence-2 loaded in float16 gets the processor's float32 `pixel_values`.

Source: https://github.com/D-Ogi/WatermarkRemover-AI/issues/60
`python remwm.py F05896700.png out/` failed in the Florence-2 vision tower's first conv with
"RuntimeError: Input type (float) and bias type (c10::Half) should be the same" (the same report
came from an Apple Silicon Mac in #69). The script loads `Florence2ForConditionalGeneration` with
`torch_dtype=torch.float16` and passes `processor(text=..., images=image, return_tensors="pt")`
straight to `generate`; the processor's `pixel_values` are float32. The maintainer's fix (#71)
casts floating-point inputs to the model dtype (and loads the CPU model in float32). Stand-in: a
DaViT-style conv stem + projection + language head, a processor returning a BatchFeature-like
dict, and a greedy generate; run on the CPU where the same conv dtype check fires.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Florence2ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=64, dim=32):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, dim, 7, stride=4, padding=3), nn.GELU(),
                                          nn.Conv2d(dim, dim, 3, stride=2, padding=1))
        self.image_projection = nn.Linear(dim, dim)
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size)

    def _encode_image(self, pixel_values):
        feats = self.vision_tower(pixel_values).flatten(2).transpose(1, 2)
        return self.image_projection(feats)

    def generate(self, input_ids, pixel_values, max_new_tokens=4, num_beams=1, do_sample=False):
        image_features = self._encode_image(pixel_values)
        for _ in range(max_new_tokens):
            h = torch.cat([image_features, self.embed_tokens(input_ids)], dim=1)
            next_id = self.lm_head(h[:, -1]).argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_id], dim=1)
        return input_ids

class Florence2Processor:
    def __call__(self, text, images, return_tensors="pt"):
        input_ids = torch.tensor([[sum(map(ord, w)) % 64 for w in text.split()]])
        pixel_values = torch.rand(1, 3, 128, 128)            # CLIPImageProcessor output, float32
        return {"input_ids": input_ids, "pixel_values": pixel_values}

device = "cpu"          # remwm.py: "cuda" / "mps" / "cpu"
florence_model = Florence2ForConditionalGeneration().to(device, dtype=torch.float16).eval()
florence_processor = Florence2Processor()
task_prompt = "<REGION_TO_SEGMENTATION>"
text_input = "watermark"
inputs = florence_processor(text=task_prompt + " " + text_input, images=None, return_tensors="pt")
'''
CELL = '''
with torch.no_grad():
    generated_ids = florence_model.generate(input_ids=inputs["input_ids"], pixel_values=inputs["pixel_values"],
                                            max_new_tokens=4, num_beams=1, do_sample=False)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["inputs['pixel_values']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["pixel_values"] = inputs["pixel_values"].to(torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
