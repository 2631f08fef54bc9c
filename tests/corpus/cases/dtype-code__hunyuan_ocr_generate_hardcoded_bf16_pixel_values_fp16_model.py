"""HunyuanOCR on CPU in float16: `generate` casts the pixel values to a hard-coded bfloat16.

Source: https://github.com/Tencent-Hunyuan/HunyuanOCR/issues/9
"I am trying to run the HunyuanOCR model on an Intel CPU ... I wanted to test the performance using
float16. However, I found that the input dtype is hardcoded to torch.bfloat16 in the
modeling_hunyuan_vl.py file": `pixel_values = pixel_values.to(torch.bfloat16)`, so a model loaded
with `torch_dtype=torch.float16` gets bf16 patches into its fp16 vision patch embedding. The
reporter's fix: respect the model's dtype (commenting the line out fixed the error). Stand-in:
HunYuanVLForConditionalGeneration reduced to a patch-embedding vision tower, a projector and a
one-step language head.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class HunYuanVisionTransformer(nn.Module):
    def __init__(self, patch=4, dim=32):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.norm = nn.LayerNorm(dim)

    def forward(self, pixel_values):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        return self.norm(x)

class HunYuanVLForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.vit = HunYuanVisionTransformer(dim=dim)
        self.mlp_projector = nn.Linear(dim, dim)
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    @torch.no_grad()
    def generate(self, input_ids, pixel_values, max_new_tokens=4):
        pixel_values = pixel_values.to(torch.bfloat16)
        image_embeds = self.mlp_projector(self.vit(pixel_values))
        ids = input_ids
        for _ in range(max_new_tokens):
            h = self.embed_tokens(ids).mean(1, keepdim=True) + image_embeds.mean(1, keepdim=True)
            ids = torch.cat([ids, self.lm_head(h)[:, -1].argmax(-1, keepdim=True)], dim=1)
        return ids

# AutoModelForImageTextToText.from_pretrained("tencent/HunyuanOCR", torch_dtype=torch.float16)
model = HunYuanVLForConditionalGeneration().to(torch.float16).eval()
inputs = {
    "input_ids": torch.tensor([[1, 5, 9, 2]]),
    "pixel_values": torch.rand(1, 3, 32, 32),     # processor(images=screenshot, ...)
}
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=8)
'''
EXPECT_ERROR = ("Input type (c10::BFloat16) and bias type (c10::Half)", "should be the same")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pixel_values = pixel_values.to(torch.bfloat16)",
                  "pixel_values = pixel_values.to(self.dtype)")
CLEAN = False
