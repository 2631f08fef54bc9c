"""DeepSeek-OCR-2 docs example: the bfloat16 checkpoint gets float32 `pixel_values` and `DeepseekOcr2SamPatchEmbeddings.forward` feeds them straight into its conv.

Source: https://github.com/huggingface/transformers/pull/48632
"The released checkpoint is `bfloat16`, but the image processor emits `float32` `pixel_values`.
`DeepseekOcr2SamPatchEmbeddings.forward` feeds them straight into the first convolution, so the usage
example in the model docs fails as written — on any device": `inputs = processor(images=image,
text=..., return_tensors="pt").to(model.device)` then `model.generate(**inputs)`. The PR casts the
pixel values to the patch embedding's dtype inside `DeepseekOcr2SamPatchEmbeddings.forward`.
Stand-in: `DeepseekOcr2ForConditionalGeneration` reduced to the SAM patch embedding + neck, a linear
vision encoder/projector, a one-layer text model and a fixed-length greedy `generate`; the processor
returns a `BatchFeature` whose `.to(device)` moves tensors without casting them.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class DeepseekOcr2SamPatchEmbeddings(nn.Module):
    def __init__(self, num_channels=3, hidden_size=32, patch_size=16):
        super().__init__()
        self.projection = nn.Conv2d(num_channels, hidden_size, kernel_size=patch_size, stride=patch_size)
    def forward(self, pixel_values):
        embeddings = self.projection(pixel_values).permute(0, 2, 3, 1)
        return embeddings

class DeepseekOcr2SamVisionEncoder(nn.Module):
    def __init__(self, hidden_size=32, output_channels=16):
        super().__init__()
        self.patch_embed = DeepseekOcr2SamPatchEmbeddings(hidden_size=hidden_size)
        self.neck = nn.Sequential(nn.LayerNorm(hidden_size), nn.Linear(hidden_size, output_channels))
    def forward(self, pixel_values):
        return self.neck(self.patch_embed(pixel_values)).flatten(1, 2)

class DeepseekOcr2VisionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.sam_encoder = DeepseekOcr2SamVisionEncoder()
        self.vision_encoder = nn.Linear(16, 32)
    def forward(self, pixel_values):
        return self.vision_encoder(self.sam_encoder(pixel_values))

class DeepseekOcr2Model(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.vision_tower = DeepseekOcr2VisionModel()
        self.multi_modal_projector = nn.Linear(32, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.language_model = nn.TransformerEncoderLayer(hidden, 4, 64, batch_first=True)

class DeepseekOcr2ForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.model = DeepseekOcr2Model(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.no_grad()
    def generate(self, input_ids, pixel_values, attention_mask=None, do_sample=False, max_new_tokens=4):
        image_embeds = self.model.multi_modal_projector(self.model.vision_tower(pixel_values))
        for _ in range(max_new_tokens):
            h = torch.cat([image_embeds, self.model.embed_tokens(input_ids)], dim=1)
            logits = self.lm_head(self.model.language_model(h))
            input_ids = torch.cat([input_ids, logits[:, -1:].argmax(-1)], dim=1)
        return input_ids

class BatchFeature(dict):
    def to(self, device):
        return BatchFeature({k: v.to(device=device) for k, v in self.items()})

class DeepseekOcr2Processor:
    def __call__(self, images=None, text=None, return_tensors="pt"):
        pixel_values = torch.rand(1, 3, 64, 64)                     # resize + normalize: float32
        input_ids = torch.randint(3, 64, (1, 6))                    # "<image>\\nFree OCR."
        return BatchFeature(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                            pixel_values=pixel_values)

model = DeepseekOcr2ForConditionalGeneration().to(torch.bfloat16)   # from_pretrained("deepseek-community/DeepSeek-OCR-2", device_map="auto"): bf16 checkpoint
processor = DeepseekOcr2Processor()
image = "https://huggingface.co/datasets/hf-internal-testing/fixtures_got_ocr/resolve/main/image_ocr.jpg"
'''
CELL = '''
inputs = processor(images=image, text="<image>\\nFree OCR.", return_tensors="pt").to(model.device)
generate_ids = model.generate(**inputs, do_sample=False, max_new_tokens=4)
'''
EXPECT_ERROR = ("Input type", "should be the same", "expected scalar type", "same dtype")
CULPRITS = ["model.model.vision_tower.sam_encoder.patch_embed"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        embeddings = self.projection(pixel_values).permute(0, 2, 3, 1)",
                  "        embeddings = self.projection(pixel_values.to(self.projection.weight.dtype)).permute(0, 2, 3, 1)")
CLEAN = False
